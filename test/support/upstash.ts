/**
 * Redis over HTTP for tests: the Upstash REST emulator (`@humanwhocodes/upstash-redis-server`: `POST /`
 * and `/pipeline`, bearer token, no base64) in a process of its own in front of a redis-server from
 * redis.ts, able to stop and come back on the same port, so a test can take the store away from
 * running services and give it back.
 */
import { fileURLToPath } from 'node:url';
import { freePort } from './net.ts';
import { serverProcess } from './process.ts';

/** The emulator's own start script, beside the module its package exports. */
const SERVER = fileURLToPath(new URL('server.js', import.meta.resolve('@humanwhocodes/upstash-redis-server')));

export interface RestServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly token: string;
  /** The variables a service reads to use it. */
  readonly env: { RATE_LIMIT_REDIS_REST_URL: string; RATE_LIMIT_REDIS_REST_TOKEN: string };
  /** Starts it again on the same port; resolves once it answers. */
  start(): Promise<void>;
  /** Stops it (SIGKILL: connections drop at once) and waits for it. */
  stop(): Promise<void>;
  /** One command over REST, as a client sends it: its JSON answer. */
  command(...args: (string | number)[]): Promise<{ result?: unknown; error?: string }>;
  output(): string;
  dispose(): Promise<void>;
}

export async function startRestServer(redisUrl: string, token = 'test-token-123'): Promise<RestServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const command = async (...args: (string | number)[]) => {
    const response = await fetch(`${url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return (await response.json()) as { result?: unknown; error?: string };
  };

  const server = serverProcess({
    what: () => `the REST emulator on port ${port}`,
    command: process.execPath,
    args: () => [SERVER],
    options: { env: { PATH: process.env.PATH, URS_TOKEN: token, PORT: String(port), REDIS_URL: redisUrl } },
    ready: async () => {
      try {
        return (await command('PING')).result === 'PONG';
      } catch {
        return false;
      }
    },
  });
  const launch = () => server.launch();
  const stop = () => server.signal('SIGKILL');

  await launch();
  return {
    url,
    token,
    env: { RATE_LIMIT_REDIS_REST_URL: url, RATE_LIMIT_REDIS_REST_TOKEN: token },
    start: launch,
    stop,
    command,
    output: server.output,
    dispose: stop,
  };
}
