/**
 * @module `npm run start:workers`: the Worker in workerd on this machine, no account, no network.
 * wrangler bundles it exactly as `wrangler deploy` would (dry run); Miniflare serves the bundle on
 * HOST:PORT with the environment as the Worker's string bindings and the Durable Object counters.
 * FACTS_FILE, if set, replaces the bundled sample facts, as the alias in wrangler.jsonc does at deploy.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Log, LogLevel, Miniflare } from 'miniflare';

const ROOT = resolve(import.meta.dirname, '..');
const { FACTS_FILE, PORT = '8787', HOST = '127.0.0.1', RATE_LIMIT_COUNTER = 'on', ...bindings } = process.env;

const outdir = await mkdtemp(join(tmpdir(), 'product-discovery-workers-'));
try {
  await promisify(execFile)(join(ROOT, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', outdir, '--config', await config()], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
} catch (error) {
  const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
  console.error(`The Worker could not be bundled:\n${stdout}${stderr}`);
  process.exitCode = 1;
} finally {
  await rm(join(ROOT, `.wrangler-facts-${process.pid}.jsonc`), { force: true });
}
if (process.exitCode) {
  await rm(outdir, { recursive: true, force: true });
  process.exit();
}

/**
 * wrangler.jsonc, or with FACTS_FILE a copy beside it whose facts alias points at that file
 * (`wrangler deploy --alias` is not applied to the bundle in wrangler 4.86).
 */
async function config(): Promise<string> {
  const shipped = join(ROOT, 'wrangler.jsonc');
  if (!FACTS_FILE) return shipped;
  const text = await readFile(shipped, 'utf8');
  // Beside the original, so the relative paths in it still resolve.
  const copy = join(ROOT, `.wrangler-facts-${process.pid}.jsonc`);
  await writeFile(copy, text.replace('"./src/sample-facts.json"', JSON.stringify(resolve(FACTS_FILE))));
  return copy;
}

const mf = new Miniflare({
  host: HOST,
  port: Number(PORT),
  // The one bundled module; its optional imports that wrangler left out are never loaded.
  modules: [{ type: 'ESModule', path: join(outdir, 'workers.js') }],
  modulesRoot: outdir,
  compatibilityDate: '2026-04-26',
  compatibilityFlags: ['nodejs_compat'],
  bindings: Object.fromEntries(Object.entries(bindings).filter((binding): binding is [string, string] => binding[1] !== undefined)),
  // RATE_LIMIT_COUNTER=off serves without the binding: the memory store per isolate.
  durableObjects: RATE_LIMIT_COUNTER === 'off' ? {} : { RATE_LIMIT_COUNTER: 'RateLimitCounter' },
  // No Request.cf from the network: a fixed placeholder (CF-Connecting-IP is still the caller's address).
  cf: false,
  log: new Log(LogLevel.WARN),
});

let url: URL;
try {
  url = await mf.ready;
} catch (error) {
  // workerd has already printed why the Worker refused to start (a StartupError names the field).
  console.error((error as Error).message);
  await mf.dispose().catch(() => {});
  await rm(outdir, { recursive: true, force: true });
  process.exit(1);
}
const served = url.origin;
console.log(`Serving the Worker in workerd on ${served} (public base ${process.env.PUBLIC_BASE_URL ?? served})`);

const stop = async () => {
  await mf.dispose();
  await rm(outdir, { recursive: true, force: true });
  process.exit(0);
};
// Miniflare's own exit hook would end the process with 128 + the signal number before dispose().
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, stop);
}
