/**
 * @module Start-up shared by the runtime entries: read the configuration and the facts, listen,
 * announce the URL, reload the facts on SIGHUP, and stop cleanly on SIGINT/SIGTERM after the
 * requests in flight. Log lines are JSON, one per line.
 * Each entry supplies only what differs per runtime (see `Runtime`).
 */
import { loadConfig, StartupError } from './config.ts';
import { checkFacts, parseFacts } from './facts.ts';
import { createHandler, type Handler, type RequestInfo } from './handler.ts';
import { jsonLinesLogger } from './log.ts';
import sampleFacts from './sample-facts.json' with { type: 'json' };

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
    const facts = options.factsFile
      ? parseFacts(options.factsFile, await readFacts(runtime, options.factsFile))
      : checkFacts('(shipped sample)', sampleFacts);

    // With PORT=0 the base URL is known only once listening, so requests wait for the handler.
    let handler: Handler | undefined;
    let ready: (handler: Handler) => void;
    const handlerReady = new Promise<Handler>((resolve) => (ready = resolve));
    const server = await runtime.listen({ host: options.host, port: options.port }, (request, info) =>
      handler ? handler(request, info) : handlerReady.then((late) => late(request, info)),
    );
    const logger = jsonLinesLogger();
    handler = await createHandler({ ...options, publicBaseUrl: options.publicBaseUrl ?? server.url, facts, logger });
    ready!(handler);
    console.log(`Serving ${facts.product.name} public API on ${server.url} (public base ${options.publicBaseUrl ?? server.url})`);

    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await handler!.idle();
      await server.stop();
      await handler!.close();
      runtime.exit(0);
    };
    runtime.onSignal('SIGINT', stop);
    runtime.onSignal('SIGTERM', stop);
    // A refused file leaves the served facts as they are; the refusal names every bad field.
    const factsFile = options.factsFile;
    runtime.onSignal('SIGHUP', () => {
      if (!factsFile) return logger({ level: 'warn', event: 'facts_not_reloaded', reason: 'FACTS_FILE is not set: the shipped sample is served' });
      readFacts(runtime, factsFile)
        .then((text) => handler!.reload(parseFacts(factsFile, text)))
        .catch((error: Error) => logger({ level: 'error', event: 'facts_refused', file: factsFile, reason: error.message }));
    });
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(error.message);
    runtime.exit(1);
  }
}

async function readFacts(runtime: Runtime, path: string): Promise<string> {
  try {
    return await runtime.readTextFile(path);
  } catch (error) {
    throw new StartupError(`FACTS_FILE=${JSON.stringify(path)} cannot be read (${(error as Error).message}): point it at the reviewed facts JSON file.`);
  }
}
