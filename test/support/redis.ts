/**
 * A real `redis-server` for tests: started on a free port without persistence, and able to stop,
 * be killed with SIGKILL, hang (SIGSTOP) and come back on the same port, so a test can take the
 * shared rate-limit store away from running handlers and give it back.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOST = '127.0.0.1';
const running = new Set<ChildProcess>();
// A test run that dies half-way must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface RedisServer {
  readonly port: number;
  /** redis://127.0.0.1:<port>, optionally with a database number. */
  url(database?: number): string;
  /** Whether a server process is running (paused counts as running). */
  readonly running: boolean;
  /** Starts the server on the same port and resolves once it answers PING. */
  start(): Promise<void>;
  /** Asks the server to exit (SIGTERM) and waits for it. */
  stop(): Promise<void>;
  /** Kills the server with SIGKILL (no shutdown, connections drop at once) and waits for it. */
  kill(): Promise<void>;
  /** Stops the process (SIGSTOP): connections stay open but nothing answers. */
  pause(): void;
  /** Lets a paused process continue (SIGCONT). */
  resume(): void;
  /** kill(), then start() on the same port. */
  restart(): Promise<void>;
  /** Server output so far, for failure messages. */
  output(): string;
  /** Kills the server and removes its working directory (for afterAll). */
  dispose(): Promise<void>;
}

/** The redis-server binary; waits a while for it, since it may still be being installed. */
export async function redisServerBinary(waitMs = 50_000): Promise<string> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const which = spawnSync('which', ['redis-server'], { encoding: 'utf8' });
    const path = which.stdout.trim();
    if (which.status === 0 && path) return path;
    if (Date.now() > deadline) throw new Error('redis-server is not installed (apt-get install redis-server)');
    await sleep(1000);
  }
}

/** Starts a redis-server on a free port. */
export async function startRedis(): Promise<RedisServer> {
  const binary = await redisServerBinary();
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  let port = 0;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = '';

  async function launch(): Promise<void> {
    const proc = spawn(
      binary,
      ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
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
    while (!(await ping(port))) {
      if (!child) throw new Error(`redis-server on port ${port} exited:\n${log.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING:\n${log.slice(-2000)}`);
      await sleep(50);
    }
  }

  async function signal(name: NodeJS.Signals): Promise<void> {
    if (!child) return;
    if (name !== 'SIGCONT') child.kill('SIGCONT');
    child.kill(name);
    await exited;
  }

  // A free port can be taken between the probe and the launch: try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      await signal('SIGKILL');
      if (attempt >= 5) throw error;
    }
  }

  const server: RedisServer = {
    port,
    url: (database) => `redis://${HOST}:${port}${database === undefined ? '' : `/${database}`}`,
    get running() {
      return child !== undefined;
    },
    async start() {
      if (child) throw new Error(`redis-server on port ${port} is already running`);
      await launch();
    },
    stop: () => signal('SIGTERM'),
    async kill() {
      await signal('SIGKILL');
      // From here on the port refuses connections.
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async restart() {
      await signal('SIGKILL');
      await launch();
    },
    output: () => log,
    async dispose() {
      await signal('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** True when a Redis server on the port answers PING with PONG (RESP, no client library). */
export function ping(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface SlowLink {
  /** The port to connect to instead of Redis's. */
  readonly port: number;
  /** How long each new connection is held before it reaches Redis (from then on, bytes pass at once). */
  delayMs: number;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of a Redis port whose new connections take `delayMs` to reach Redis, as a
 * Redis across a network does: the client's connection is accepted at once, its first bytes
 * (the handshake) wait. What the relay passes on is byte for byte what the client sent.
 */
export async function slowLink(redisPort: number, delayMs: number): Promise<SlowLink> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.pause();
    client.on('error', () => client.destroy());
    client.on('close', () => sockets.delete(client));
    setTimeout(() => {
      if (client.destroyed) return;
      const upstream = createConnection({ host: HOST, port: redisPort });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
      upstream.on('connect', () => {
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    }, link.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const link: SlowLink = {
    port: (server.address() as { port: number }).port,
    delayMs,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return link;
}
