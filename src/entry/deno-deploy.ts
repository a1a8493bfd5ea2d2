/**
 * @module Deno Deploy, and `deno serve` anywhere: a default `{ fetch }` export over the shared
 * serverless start-up (src/startup/platform.ts). The client is `info.remoteAddr`. PUBLIC_BASE_URL is required
 * on Deno Deploy; elsewhere (`deno task serve:deploy`) `{base}` defaults to the listening address.
 */
import { denoDeploy, platformHandler } from '../startup/platform.ts';
import { listeningUrl } from '../startup/listen.ts';

const { promise: listening, resolve: listened } = Promise.withResolvers<string>();
const handler = platformHandler(Deno.env.toObject(), denoDeploy(listening));

export default {
  async fetch(request, info) {
    // `info` is absent when the export is called directly rather than by `deno serve`.
    return (await handler)(request, { clientAddress: (info?.remoteAddr as Deno.NetAddr | undefined)?.hostname });
  },
  // The start line, naming the product, is printed once the handler is made (platform.ts).
  onListen(addr) {
    listened(listeningUrl(addr as Deno.NetAddr));
  },
} satisfies Deno.ServeDefaultExport;
