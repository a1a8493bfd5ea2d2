/**
 * @module Start-up shared by the runtime entries: read the configuration and the facts, listen,
 * announce the URL, reload the facts on SIGHUP, and stop cleanly on SIGINT/SIGTERM after the
 * requests in flight. Log lines are JSON, one per line.
 * Each entry supplies only what differs per runtime (see `Runtime`).
 */
import { loadConfig, STORE_VARIABLES } from './config.ts';
import { StartupError } from '../util/startup-error.ts';
import { readFacts, readFactsFile } from '../facts/read.ts';
import { createHandler, type Handler, type RequestInfo } from '../handler.ts';
import { jsonLinesLogger } from '../util/log.ts';
import { withStoreOpened } from '../ratelimit/index.ts';
import { listenFailure } from './listen.ts';
import { toResponse, type Answered } from '../http/answer.ts';
import { andThen, type Maybe } from '../util/maybe.ts';
import type { Product } from '../facts/schema.ts';
import pkg from '../../package.json' with { type: 'json' };

/** Given at once when nothing had to wait, as `Handler.answer` is: Bun.serve and Deno.serve take either. */
export interface Fetch {
  (request: Request, info: RequestInfo): Maybe<Response>;
  /** The handler's answer before it becomes a Response (`Handler.answer`), for a runtime that writes it itself (Node). */
  answer(request: Request, info: RequestInfo): Maybe<Answered>;
}

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
    const rateLimit = await withStoreOpened(options.rateLimit, STORE_VARIABLES);

    // With PORT=0 the base URL is known only once listening, so requests wait for the handler.
    let handler: Handler | undefined;
    let ready: (handler: Handler) => void;
    const handlerReady = new Promise<Handler>((resolve) => (ready = resolve));
    const address = { host: options.host, port: options.port };
    const answer = (request: Request, info: RequestInfo) =>
      handler ? handler.answer(request, info) : handlerReady.then((late) => late.answer(request, info));
    const fetch = (request: Request, info: RequestInfo) =>
      handler ? andThen(handler.answer(request, info), toResponse) : handlerReady.then((late) => late(request, info));
    const server = await listenOrExplain(runtime, address, Object.assign(fetch, { answer }));
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
      readFactsFile(factsFile, runtime.readTextFile)
        .then((facts) => handler!.reload(facts))
        .catch((error: Error) => logger({ level: 'error', event: 'facts_refused', file: factsFile, reason: error.message }));
    });
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(error.message);
    runtime.exit(1);
  }
}

/** The line every entry prints once it serves: the product its facts name, the version, where it listens and `{base}`. */
export const startLine = (facts: Pick<Product, 'product'>, url: string, base: string, where = ''): string =>
  `Serving ${facts.product.name} public API ${pkg.version}${where} on ${url} (public base ${base})`;

/** Listens, turning the runtime's error for a busy port or an unusable address into a StartupError. */
async function listenOrExplain(runtime: Runtime, address: { host: string; port: number }, fetch: Fetch): Promise<Listening> {
  try {
    return await runtime.listen(address, fetch);
  } catch (error) {
    throw listenFailure(error, address);
  }
}
