/**
 * @module Deno Deploy, and `deno serve` anywhere: a default `{ fetch }` export over the shared
 * serverless start-up (src/startup/platform.ts). The client is `info.remoteAddr`. PUBLIC_BASE_URL is required
 * on Deno Deploy; elsewhere (`deno task serve:deploy`) `{base}` defaults to the listening address.
 */
import { denoDeploy, platformHandler } from '../startup/platform.ts';
import { listeningUrl } from '../startup/start.ts';
import pkg from '../../package.json' with { type: 'json' };

const { promise: listening, resolve: listened } = Promise.withResolvers<string>();
const handler = platformHandler(Deno.env.toObject(), denoDeploy(listening));

export default {
  async fetch(request, info) {
    return (await handler)(request, { clientAddress: (info.remoteAddr as Deno.NetAddr).hostname });
  },
  onListen(addr) {
    const url = listeningUrl(addr as Deno.NetAddr);
    listened(url);
    const base = Deno.env.get('PUBLIC_BASE_URL') || url;
    void handler.then(() => console.log(`Serving ${pkg.name} ${pkg.version} on ${url} (public base ${base})`));
  },
} satisfies Deno.ServeDefaultExport;
