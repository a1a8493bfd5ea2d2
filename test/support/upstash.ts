/**
 * Redis over HTTP for tests: the Upstash REST emulator (`@humanwhocodes/upstash-redis-server`: `POST /`
 * and `/pipeline`, bearer token, no base64) in a process of its own in front of a redis-server from
 * redis.ts, able to stop and come back on the same port, so a test can take the store away from
 * running services and give it back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './net.ts';

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

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
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = '';

  const command = async (...args: (string | number)[]) => {
    const response = await fetch(`${url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return (await response.json()) as { result?: unknown; error?: string };
  };

  async function launch(): Promise<void> {
    const proc = spawn(process.execPath, [SERVER], {
      env: { PATH: process.env.PATH, URS_TOKEN: token, PORT: String(port), REDIS_URL: redisUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    running.add(proc);
    proc.stdout!.on('data', (chunk) => (log += chunk));
    proc.stderr!.on('data', (chunk) => (log += chunk));
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        running.delete(proc);
        if (child === proc) child = undefined;
        resolve();
      }),
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        if ((await command('PING')).result === 'PONG') return;
      } catch {}
      if (!child) throw new Error(`the REST emulator on port ${port} exited:\n${log.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`the REST emulator on port ${port} did not answer:\n${log.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function stop(): Promise<void> {
    child?.kill('SIGKILL');
    await exited;
  }

  await launch();
  return {
    url,
    token,
    env: { RATE_LIMIT_REDIS_REST_URL: url, RATE_LIMIT_REDIS_REST_TOKEN: token },
    start: launch,
    stop,
    command,
    output: () => log,
    dispose: stop,
  };
}
