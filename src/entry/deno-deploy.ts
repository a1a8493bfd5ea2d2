/**
 * @module Deno Deploy, and `deno serve` anywhere: a default `{ fetch }` export. The configuration
 * and the facts (bundled, or FACTS_FILE in the deployment) are checked while the module loads; a
 * refusal is printed as one block and the process exits 1. The client is `info.remoteAddr`.
 * `{base}` is PUBLIC_BASE_URL, required on Deno Deploy (DENO_DEPLOYMENT_ID is set there): an app's
 * URLs (preview, production, custom domains) are not one variable, and `{base}` is never taken from
 * a request. Elsewhere (`deno task serve:deploy`) it defaults to the address `deno serve` listens on.
 */
import { loadConfig, type Options } from '../config.ts';
import { checkFacts } from '../facts.ts';
import { createHandler, type Handler } from '../handler.ts';
import { loadFacts } from '../start.ts';
import { StartupError } from '../startup-error.ts';
import type { Product } from '../schemas.ts';
import sampleFacts from '../sample-facts.json' with { type: 'json' };
import pkg from '../../package.json' with { type: 'json' };

const env = Deno.env.toObject();

async function prepare(): Promise<{ options: Options; facts: Product }> {
  const options = loadConfig(env);
  if (env.DENO_DEPLOYMENT_ID && !options.publicBaseUrl) {
    throw new StartupError(
      'Invalid configuration:\n  PUBLIC_BASE_URL is unset: on Deno Deploy it is required, as no one variable names the URL clients ' +
        "use; set it to your app's production URL or custom domain, such as https://api.example.com.",
    );
  }
  const facts = options.factsFile
    ? await loadFacts(options.factsFile, (path) => Deno.readTextFile(path))
    : checkFacts('(bundled sample)', sampleFacts);
  return { options, facts };
}

function refuse(error: unknown): never {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  Deno.exit(1);
}

const { options, facts } = await prepare().catch(refuse);
const build = (publicBaseUrl: string) => createHandler({ ...options, publicBaseUrl, facts }).catch(refuse);

// Without PUBLIC_BASE_URL the address is known only once listening; requests wait for the handler.
let handler: Promise<Handler> | undefined = options.publicBaseUrl ? build(options.publicBaseUrl) : undefined;
const { promise: listening, resolve: listened } = Promise.withResolvers<Handler>();

export default {
  async fetch(request, info) {
    const serve = await (handler ?? listening);
    return serve(request, { clientAddress: (info.remoteAddr as Deno.NetAddr).hostname });
  },
  onListen(addr) {
    const { hostname, port } = addr as Deno.NetAddr;
    const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
    handler ??= build(url);
    void handler.then((ready) => {
      listened(ready);
      console.log(`Serving ${facts.product.name} public API ${pkg.version} on ${url} (public base ${options.publicBaseUrl ?? url})`);
    });
  },
} satisfies Deno.ServeDefaultExport;
