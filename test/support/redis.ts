/**
 * Real Redis processes for tests: a `redis-server` started on a free port without persistence, and
 * able to stop, be killed with SIGKILL, hang (SIGSTOP) and come back on the same port, so a test can
 * take the shared rate-limit store away from running handlers and give it back; a Redis Cluster of
 * such servers (made by `redis-cli --cluster create`), and a master, a replica and a sentinel.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { freePort, sleep } from './net.ts';
import { serverProcess } from './process.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HOST = '127.0.0.1';

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

export interface RedisOptions {
  /** More redis-server arguments (cluster mode, --replicaof ...), after the common ones. */
  args?: string[];
  /** Run as a sentinel with this configuration, written to a file in the server's directory (a sentinel rewrites it). */
  sentinelConfig?: string;
}

/** Starts a redis-server on a free port. */
export async function startRedis({ args = [], sentinelConfig }: RedisOptions = {}): Promise<RedisServer> {
  const binary = await redisServerBinary();
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const config = join(dir, 'sentinel.conf');
  if (sentinelConfig !== undefined) writeFileSync(config, sentinelConfig);
  const mode = sentinelConfig === undefined ? [] : [config, '--sentinel'];
  let port = 0;
  const proc = serverProcess({
    what: () => `redis-server on port ${port}`,
    command: binary,
    args: () => [
      ...mode,
      '--port',
      String(port),
      '--bind',
      HOST,
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      ...args,
    ],
    options: { cwd: dir },
    ready: () => ping(port),
  });
  const launch = () => proc.launch();
  const signal = (name: NodeJS.Signals) => proc.signal(name);

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
      return proc.child !== undefined;
    },
    async start() {
      if (proc.child) throw new Error(`redis-server on port ${port} is already running`);
      await launch();
    },
    stop: () => signal('SIGTERM'),
    async kill() {
      await signal('SIGKILL');
      // From here on the port refuses connections.
    },
    pause() {
      proc.child?.kill('SIGSTOP');
    },
    resume() {
      proc.child?.kill('SIGCONT');
    },
    async restart() {
      await signal('SIGKILL');
      await launch();
    },
    output: proc.output,
    async dispose() {
      await signal('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
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

/** Runs redis-cli against a port and resolves with its output (an error reply is output too). */
export function redisCli(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', ['-h', HOST, '-p', String(port), ...args], { timeout: 10_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`redis-cli -p ${port} ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** The `field:value` lines of an INFO or CLUSTER INFO answer. */
export function infoFields(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/\r?\n/)
      .flatMap((line) => (/^[a-z_0-9]+:/.test(line) ? [[line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]] : [])),
  );
}

/** Polls until `check` resolves true, or throws with `what` once `timeoutMs` has passed. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export interface ClusterNode {
  id: string;
  /** The id of the master a replica copies ('-' for a master). */
  masterId: string;
  port: number;
  role: 'master' | 'replica';
  /** Flagged as failing by the node asked. */
  failing: boolean;
  /** Hash slot ranges served (masters), e.g. ["0-5460"]. */
  slots: string[];
}

export interface RedisClusterProcesses {
  /** Every node, started with `--cluster-enabled yes`; a killed one restarts as a replica of its successor. */
  readonly nodes: RedisServer[];
  /** redis:// URLs of every node, the seeds a client is given. */
  urls(): string[];
  /** The topology as a running node sees it now (CLUSTER NODES). */
  topology(): Promise<ClusterNode[]>;
  /** The server process of a node. */
  server(port: number): RedisServer;
  /** Waits until every running node says cluster_state:ok and `masters` nodes serve slots with no failure flag. */
  settled(timeoutMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A Redis Cluster on loopback: `masters` servers and one replica each, made by `redis-cli --cluster create`.
 * A short node timeout (1 s by default) lets a replica take over a dead master within seconds.
 */
export async function startCluster({ masters = 3, nodeTimeoutMs = 1000 } = {}): Promise<RedisClusterProcesses> {
  const args = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeoutMs)];
  const nodes = await Promise.all(Array.from({ length: masters * 2 }, () => startRedis({ args })));
  const cluster: RedisClusterProcesses = {
    nodes,
    urls: () => nodes.map((node) => node.url()),
    server(port) {
      const node = nodes.find((candidate) => candidate.port === port);
      if (!node) throw new Error(`no cluster node on port ${port}`);
      return node;
    },
    async topology() {
      const asked = nodes.find((node) => node.running);
      if (!asked) throw new Error('no cluster node is running');
      return (await redisCli(asked.port, 'cluster', 'nodes'))
        .trim()
        .split('\n')
        .map((line) => {
          const [id, address, flags, masterId, , , , , ...slots] = line.trim().split(' ');
          const flagList = flags!.split(',');
          return {
            id: id!,
            masterId: masterId!,
            port: Number(/:(\d+)@/.exec(address!)![1]),
            role: flagList.includes('master') ? 'master' : 'replica',
            failing: flagList.includes('fail') || flagList.includes('fail?'),
            slots,
          } satisfies ClusterNode;
        });
    },
    async settled(timeoutMs = 30_000) {
      await until(
        `a settled cluster of ${masters} masters`,
        async () => {
          for (const node of nodes.filter((candidate) => candidate.running)) {
            if (infoFields(await redisCli(node.port, 'cluster', 'info')).cluster_state !== 'ok') return false;
          }
          const serving = (await cluster.topology()).filter((node) => node.role === 'master' && !node.failing && node.slots.length > 0);
          return serving.length === masters;
        },
        timeoutMs,
      );
    },
    async dispose() {
      await Promise.all(nodes.map((node) => node.dispose()));
    },
  };
  try {
    const created = await redisCli(
      nodes[0]!.port,
      '--cluster',
      'create',
      ...nodes.map((node) => `${HOST}:${node.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    );
    if (!created.includes('All 16384 slots covered')) throw new Error(`redis-cli --cluster create:\n${created}`);
    await cluster.settled();
    // Each replica has made its first sync, so it can take over.
    for (const node of await cluster.topology()) {
      if (node.role === 'replica')
        await until(
          `replica ${node.port} in sync`,
          async () => infoFields(await redisCli(node.port, 'info', 'replication')).master_link_status === 'up',
        );
    }
  } catch (error) {
    await cluster.dispose();
    throw error;
  }
  return cluster;
}

export interface RedisSentinelProcesses {
  readonly masterName: string;
  /** The master at the start; a killed one restarts as a replica of the promoted one. */
  readonly master: RedisServer;
  readonly replica: RedisServer;
  readonly sentinel: RedisServer;
  /** The sentinel's redis:// URL(s), what the service is given. */
  urls(): string[];
  /** The port of the master the sentinel names now. */
  masterPort(): Promise<number>;
  dispose(): Promise<void>;
}

/** One master, one replica and one sentinel watching them (quorum 1, down after `downAfterMs`). */
export async function startSentinel({ masterName = 'mymaster', downAfterMs = 1000 } = {}): Promise<RedisSentinelProcesses> {
  const master = await startRedis();
  const started: RedisServer[] = [master];
  try {
    const replica = await startRedis({ args: ['--replicaof', HOST, String(master.port)] });
    started.push(replica);
    await until(
      'the replica in sync',
      async () => infoFields(await redisCli(replica.port, 'info', 'replication')).master_link_status === 'up',
    );
    const sentinel = await startRedis({
      sentinelConfig: [
        `sentinel monitor ${masterName} ${HOST} ${master.port} 1`,
        `sentinel down-after-milliseconds ${masterName} ${downAfterMs}`,
        `sentinel failover-timeout ${masterName} 10000`,
        '',
      ].join('\n'),
    });
    started.push(sentinel);
    // The sentinel learns the replica from the master; only then can it promote it.
    await until('the sentinel to know the replica', async () =>
      (await redisCli(sentinel.port, 'sentinel', 'replicas', masterName)).includes(String(replica.port)),
    );
    return {
      masterName,
      master,
      replica,
      sentinel,
      urls: () => [sentinel.url()],
      async masterPort() {
        const [, port] = (await redisCli(sentinel.port, 'sentinel', 'get-master-addr-by-name', masterName)).trim().split('\n');
        return Number(port);
      },
      async dispose() {
        await Promise.all(started.map((server) => server.dispose()));
      },
    };
  } catch (error) {
    await Promise.all(started.map((server) => server.dispose()));
    throw error;
  }
}
