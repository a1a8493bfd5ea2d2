/**
 * @module Start-up shared by the runtime entries: read the configuration and the facts, listen,
 * announce the URL, reload the facts on SIGHUP, and stop cleanly on SIGINT/SIGTERM after the
 * requests in flight. Log lines are JSON, one per line.
 * Each entry supplies only what differs per runtime (see `Runtime`).
 */
import { loadConfig } from './config.ts';
import { StartupError } from '../util/startup-error.ts';
import { checkFacts, parseFacts } from '../facts/check.ts';
import { createHandler, type Handler, type RequestInfo } from '../handler.ts';
import { jsonLinesLogger } from '../util/log.ts';
import { withStoreOpened } from '../ratelimit/index.ts';
import type { Product } from '../facts/schema.ts';
import sampleFacts from '../facts/sample-facts.json' with { type: 'json' };
import pkg from '../../package.json' with { type: 'json' };

export type Fetch = (request: Request, info: RequestInfo) => Promise<Response>;

export interface Listening {
  /** The address the server listens on, e.g. http://127.0.0.1:8787 */
  url: string;
  /** Stops accepting connections and resolves when the server is closed. */
  stop(): Promise<void>;
}

export interface Runtime {
  env: Record<string, string | undefined>;
  readTextFile(path: string): Promise<string>;
  listen(address: { host: string; port: number }, fetch: Fetch): Listening | Promise<Listening>;
  onSignal(signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP', listener: () => void): void;
  exit(code: number): never;
}

export async function start(runtime: Runtime): Promise<void> {
  try {
    const options = loadConfig(runtime.env);
    const { telemetry } = options;
    // OpenTelemetry's SDK is loaded only when its variables (or METRICS_PORT) ask for it.
    const providers =
      telemetry.otlp || telemetry.deno || telemetry.metricsPort
        ? await (await import('../telemetry/sdk.ts')).startSdk(telemetry, options.host)
        : undefined;
    const facts = await readFacts(options.factsFile, runtime.readTextFile);
    // A store this runtime cannot use, or a table that does not exist, refuses start-up before listening.
    const rateLimit = await withStoreOpened(options.rateLimit);

    // With PORT=0 the base URL is known only once listening, so requests wait for the handler.
    let handler: Handler | undefined;
    let ready: (handler: Handler) => void;
    const handlerReady = new Promise<Handler>((resolve) => (ready = resolve));
    const address = { host: options.host, port: options.port };
    const server = await listenOrExplain(runtime, address, (request, info) =>
      handler ? handler(request, info) : handlerReady.then((late) => late(request, info)),
    );
    const logger = jsonLinesLogger();
    handler = await createHandler({
      ...options,
      rateLimit,
      publicBaseUrl: options.publicBaseUrl ?? server.url,
      facts,
      logger,
      telemetry: { ...providers, serverTiming: telemetry.serverTiming },
    });
    ready!(handler);
    console.log(startLine(facts, server.url, options.publicBaseUrl ?? server.url));

    let stopping = false;
    const stop = async (signal: 'SIGINT' | 'SIGTERM') => {
      if (stopping) return;
      stopping = true;
      const inFlight = handler!.inFlight;
      await handler!.idle();
      await server.stop();
      await handler!.close();
      await providers?.shutdown();
      logger({ level: 'info', event: 'shutdown', signal, drainedRequests: inFlight });
      runtime.exit(0);
    };
    runtime.onSignal('SIGINT', () => stop('SIGINT'));
    runtime.onSignal('SIGTERM', () => stop('SIGTERM'));
    // A refused file leaves the served facts as they are; the refusal names every bad field.
    const factsFile = options.factsFile;
    runtime.onSignal('SIGHUP', () => {
      if (!factsFile)
        return logger({ level: 'warn', event: 'facts_not_reloaded', reason: 'FACTS_FILE is not set: the shipped sample is served' });
      loadFacts(factsFile, runtime.readTextFile)
        .then((facts) => handler!.reload(facts))
        .catch((error: Error) => logger({ level: 'error', event: 'facts_refused', file: factsFile, reason: error.message }));
    });
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(error.message);
    runtime.exit(1);
  }
}

/** The facts every entry starts with: FACTS_FILE when set, else the shipped sample. */
export function readFacts(factsFile: string | undefined, readTextFile: Runtime['readTextFile']): Promise<Product> {
  return factsFile ? loadFacts(factsFile, readTextFile) : Promise.resolve(checkFacts('(shipped sample)', sampleFacts));
}

/** The line every entry prints once it serves: the product its facts name, the version, where it listens and `{base}`. */
export const startLine = (facts: Pick<Product, 'product'>, url: string, base: string, where = ''): string =>
  `Serving ${facts.product.name} public API ${pkg.version}${where} on ${url} (public base ${base})`;

/** The URL of a listening address (an IPv6 one in brackets). */
export const listeningUrl = ({ hostname, port }: { hostname: string; port: number }): string =>
  `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;

/** Reads and checks a facts file as start-up does; a refusal is a StartupError naming every field. */
export async function loadFacts(path: string, readTextFile: Runtime['readTextFile']): Promise<Product> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    throw new StartupError(
      `FACTS_FILE=${JSON.stringify(path)} cannot be read (${(error as Error).message}): point it at the reviewed facts JSON file.`,
    );
  }
  return parseFacts(path, text);
}

/** Listens, turning the runtime's error for a busy port or an unusable address into a StartupError. */
async function listenOrExplain(runtime: Runtime, address: { host: string; port: number }, fetch: Fetch): Promise<Listening> {
  try {
    return await runtime.listen(address, fetch);
  } catch (error) {
    throw listenFailure(error, address);
  }
}

// Node and Bun set `code` (EADDRINUSE...); Deno sets `code` on its typed errors and names the rest.
export function listenFailure(error: unknown, { host, port }: { host: string; port: number }): StartupError {
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  const reason = code ?? name ?? 'error';
  if (code === 'EADDRINUSE' || name === 'AddrInUse') {
    return new StartupError(
      `Cannot listen:\n  PORT=${JSON.stringify(String(port))}: port ${port} is already in use on ${host}; ` +
        'stop the process that holds it or choose another PORT (0 = any free port).',
    );
  }
  if (code === 'EACCES' || name === 'PermissionDenied') {
    return new StartupError(
      `Cannot listen:\n  PORT=${JSON.stringify(String(port))}: not permitted to listen on port ${port} (${reason}); ` +
        'choose a PORT from 1024 up, or grant the process the right to bind it.',
    );
  }
  const detail = firstLine(message).startsWith(reason) ? firstLine(message) : `${reason}: ${firstLine(message)}`;
  return new StartupError(
    `Cannot listen:\n  HOST=${JSON.stringify(host)}: cannot listen on this address (${detail}); ` +
      'use an address of this machine, such as 127.0.0.1, ::1 or 0.0.0.0 for every interface.',
  );
}

const firstLine = (text = '') => text.split('\n')[0]!.trim();
