/**
 * @module `npm run start:workers`: the Worker in workerd on this machine, no account, no network.
 * wrangler bundles it exactly as `wrangler deploy` would (dry run); Miniflare serves the bundle on
 * HOST:PORT with the environment as the Worker's string bindings and the Durable Object counters.
 * FACTS_FILE, if set, replaces the bundled sample facts, as the alias in wrangler.jsonc does at deploy.
 * The configuration, the facts file and the port are checked here first, so a refusal is one message
 * naming the variable or the file, as on the other runtimes, rather than a trace from workerd.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { loadConfig } from '../src/startup/config.ts';
import { StartupError } from '../src/util/startup-error.ts';
import type { Product } from '../src/facts/schema.ts';
import { readFacts } from '../src/facts/read.ts';
import { listenFailure } from '../src/startup/listen.ts';
import { startLine } from '../src/startup/start.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { FACTS_FILE, PORT: _port, HOST: _host, RATE_LIMIT_COUNTER = 'on', ...bindings } = process.env;
const factsAlias = join(ROOT, `.wrangler-facts-${process.pid}.jsonc`);
let outdir: string | undefined;
let bundling: ReturnType<typeof execFile> | undefined;
let mf: Miniflare | undefined;
let stopping = false;

/** SIGINT and SIGTERM stop whatever is under way (the bundler, workerd), then exit 0. */
const stop = async () => {
  if (stopping) return;
  stopping = true;
  bundling?.kill('SIGTERM');
  await mf?.dispose().catch(() => {});
  await cleanUp();
  process.exit(0);
};
// Also after Miniflare has put its own handlers in, which would exit with 128 + the signal number before dispose().
const stopOnSignals = () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, stop);
  }
};
stopOnSignals();

async function cleanUp() {
  await rm(factsAlias, { force: true });
  if (outdir) await rm(outdir, { recursive: true, force: true });
}

async function refuse(message: string): Promise<never> {
  // A failure caused by stopping (the bundler or workerd ended by the signal) is no refusal: stop() exits.
  if (stopping) return new Promise<never>(() => {});
  console.error(message);
  await mf?.dispose().catch(() => {});
  await cleanUp();
  process.exit(1);
}

let host: string;
let port: number;
let facts: Product;
try {
  ({ host, port } = loadConfig(process.env));
  facts = await readFacts(FACTS_FILE, (path) => readFile(path, 'utf8'));
  if (port !== 0) await canListen(host, port);
  // The Worker requires PUBLIC_BASE_URL; a local run defaults it to the address it listens on, as
  // the other runtimes do, so PORT=0 becomes a free port chosen here.
  else if (!bindings.PUBLIC_BASE_URL) port = await freePort(host);
  bindings.PUBLIC_BASE_URL ||= `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
} catch (error) {
  if (!(error instanceof StartupError)) throw error;
  await refuse(error.message);
}

outdir = await mkdtemp(join(tmpdir(), 'product-discovery-workers-'));
try {
  const wrangler = promisify(execFile)(
    join(ROOT, 'node_modules/.bin/wrangler'),
    ['deploy', '--dry-run', '--outdir', outdir, '--config', await config()],
    {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    },
  );
  bundling = wrangler.child;
  await wrangler;
  bundling = undefined;
} catch (error) {
  const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
  await refuse(`The Worker could not be bundled:\n${stdout}${stderr}`);
}
await rm(factsAlias, { force: true });

/**
 * wrangler.jsonc, or with FACTS_FILE a copy beside it whose facts alias points at that file
 * (`wrangler deploy --alias` is not applied to the bundle in wrangler 4.86).
 */
async function config(): Promise<string> {
  const shipped = join(ROOT, 'wrangler.jsonc');
  if (!FACTS_FILE) return shipped;
  const text = await readFile(shipped, 'utf8');
  // Beside the original, so the relative paths in it still resolve.
  await writeFile(factsAlias, text.replace('"./src/facts/sample-facts.json"', JSON.stringify(resolve(FACTS_FILE))));
  return factsAlias;
}

/** Node's own listen on HOST:PORT, closed at once: a busy port or an address not of this machine is named before workerd tries. */
function canListen(hostname: string, portNumber: number): Promise<void> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', (error) => fail(listenFailure(error, { host: hostname, port: portNumber })));
    probe.listen({ host: hostname, port: portNumber, exclusive: true }, () => probe.close(() => done()));
  });
}

/** A port free on `hostname` now (Node picks it; closed again for workerd to take). */
function freePort(hostname: string): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', (error) => fail(listenFailure(error, { host: hostname, port: 0 })));
    probe.listen({ host: hostname, port: 0, exclusive: true }, () => {
      const { port: chosen } = probe.address() as import('node:net').AddressInfo;
      probe.close(() => done(chosen));
    });
  });
}

// What workerd prints while it starts is held back: on a refusal, only the reason is printed.
let starting = true;
let startup = '';
mf = new Miniflare({
  host: host!,
  port: port!,
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
  handleRuntimeStdio(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) {
    stdout.pipe(process.stdout);
    stderr.on('data', (chunk: Buffer) => (starting ? (startup += chunk) : process.stderr.write(chunk)));
  },
});
stopOnSignals();

let url: URL;
try {
  url = await mf.ready;
} catch {
  await refuse(startupFailure(startup));
}
starting = false;
process.stderr.write(startup);
const served = url!.origin;
console.log(startLine(facts!, served, bindings.PUBLIC_BASE_URL, ' (the Worker in workerd)'));

/** Why workerd did not start: the Worker's own StartupError, a port taken since the check above, or what workerd said. */
function startupFailure(output: string): string {
  const refused = /Uncaught (?:Error: )?StartupError: ([\s\S]*?)\n\s+at /.exec(output);
  if (refused) return refused[1]!;
  if (/Address already in use/.test(output)) return listenFailure({ code: 'EADDRINUSE' }, { host: host!, port: port! }).message;
  return `The Worker did not start in workerd:\n${output.trim()}`;
}
