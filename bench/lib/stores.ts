/**
 * @module The shared rate-limit stores a service instance can count in for the benchmark: one
 * redis-server, or a Redis Cluster of three masters, on the load CPU, and the environment that
 * points an instance at it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { config } from './config.ts';
import { freePort, run, start, type Running } from './proc.ts';

export type StoreKind = 'redis' | 'redis-cluster';

export interface RunningStore {
  /** The variables that point a service instance at it. */
  env: Record<string, string>;
  /** Health's `redisMode` once an instance counts in it. */
  redisMode: 'standalone' | 'cluster';
  stop(): Promise<void>;
}

const READY = /(Ready to accept connections)/;

async function redisServer(args: string[] = []): Promise<{ port: number; server: Running }> {
  const port = await freePort();
  const server = await start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], {
    cpu: config.loadCpu,
    ready: READY,
  });
  return { port, server };
}

export async function startStore(kind: StoreKind): Promise<RunningStore> {
  if (kind === 'redis') {
    const { port, server } = await redisServer();
    return { env: { REDIS_URL: `redis://127.0.0.1:${port}` }, redisMode: 'standalone', stop: () => server.stop() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const nodes = await Promise.all(
    [0, 1, 2].map((i) => redisServer(['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${i}.conf`), '--dir', dir])),
  );
  const addresses = nodes.map(({ port }) => `127.0.0.1:${port}`);
  await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
  return {
    env: { REDIS_CLUSTER_URLS: addresses.map((address) => `redis://${address}`).join(',') },
    redisMode: 'cluster',
    async stop() {
      await Promise.all(nodes.map(({ server }) => server.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
