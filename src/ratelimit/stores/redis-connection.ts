/**
 * @module The official client (@redis/client) in each of its three modes behind one small interface:
 * one server (createClient), Redis Cluster (createCluster), Redis with Sentinel (createSentinel). Every
 * mode runs the same script and reads from primaries only; what differs is how the client is made,
 * how it keeps (re)connecting, and which keys may share one script call.
 */
import { createClient, createCluster, createSentinel, defineScript, RedisClient } from '@redis/client';
import { within } from '../../util/deadline.ts';
import { backoff, firstConnectionLatch, retrying } from './reconnect.ts';
import { countTogether, INCREMENT_WINDOWS_SCRIPT, type Counted, type Increment } from './redis-script.ts';
import type { RedisMode, RedisTarget } from './choice.ts';

/** The longest a request waits for the first connection, and the client's connect timeout. */
export const CONNECT_TIMEOUT_MS = 1000;
/** The longest one attempt to discover a cluster and connect to its masters may take. */
const CLUSTER_CONNECT_TIMEOUT_MS = 5000;

// After a Redis restart the script cache is empty: node-redis retries EVALSHA as EVAL on NOSCRIPT.
const incrementWindows = defineScript({
  SCRIPT: INCREMENT_WINDOWS_SCRIPT,
  parseCommand(parser, keys: Counted[]) {
    parser.push(String(keys.length));
    for (const { key } of keys) parser.pushKey(key);
    for (const { by, ttlMs } of keys) parser.push(String(by), String(ttlMs));
  },
  transformReply: (reply: unknown) => reply as number[],
});

export interface RedisConnection {
  readonly mode: RedisMode;
  /** True once the first connection is made; false if the first attempt failed or the connection was closed first. */
  readonly firstConnection: Promise<boolean>;
  /** Splits a batch into the groups that may go out as one script call each. */
  split<T extends Increment>(batch: T[]): T[][];
  increment(increments: Increment[]): Promise<number[]>;
  get(key: string): Promise<string | null>;
  /** Stops connecting and drops every connection. */
  close(): Promise<void>;
}

export interface ConnectionOptions {
  maxPendingCommands: number;
}

export function connectRedis(target: RedisTarget, { maxPendingCommands }: ConnectionOptions): RedisConnection {
  const node = {
    // Fail fast while disconnected instead of queueing requests behind an outage.
    disableOfflineQueue: true,
    commandsQueueMaxLength: maxPendingCommands,
    socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: backoff },
  };
  // No command timeout of the client's own (node-redis 6 gives each command a 5 s one by default):
  // it makes an AbortSignal and a timer per command, and it applies only while a command waits to
  // be written, which a batch does for one turn of the event loop. The store bounds every call with
  // its own deadline, sends one batch at a time, and none while Redis is down.
  const shared = { scripts: { incrementWindows }, commandOptions: { timeout: 0 } };
  const first = firstConnectionLatch();
  const whole = <T>(batch: T[]) => [batch];

  if (target.mode === 'standalone') {
    const client = createClient({ url: target.url, ...node, ...shared });
    // Errors surface through rejected commands; the listener keeps the client from throwing them.
    client.on('error', () => first.settle(false));
    client.on('ready', () => first.settle(true));
    // Stays pending while Redis is unreachable: the client keeps reconnecting by itself.
    const connecting = client.connect().catch(() => {});
    return {
      mode: 'standalone',
      firstConnection: first.promise,
      split: whole,
      increment: (increments) => countTogether(increments, (keys) => client.incrementWindows(keys)),
      get: (key) => client.get(key),
      async close() {
        first.settle(false);
        // Destroy first: `connecting` never settles while Redis is unreachable. Destroying again
        // after it settles closes a socket that finished connecting during the first destroy.
        client.destroy();
        await connecting;
        client.destroy();
      },
    };
  }

  // Credentials and TLS of the first URL apply to every node the client discovers or is sent to.
  const { username, password, socket } = RedisClient.parseURL(target.urls[0]!);
  const secured = { ...node, username, password, socket: { ...node.socket, tls: socket?.tls === true } };

  if (target.mode === 'cluster') {
    const fresh = () => {
      const client = createCluster({
        // Each seed's TLS comes from its own URL (the configuration refuses mixed schemes).
        rootNodes: target.urls.map((url) => ({ url, socket: { connectTimeout: CONNECT_TIMEOUT_MS } })),
        defaults: { ...secured, socket: { ...secured.socket } },
        // Counters are read where they are written: a replica may lag behind its master.
        useReplicas: false,
        // Learn a failover's new topology a second after a node stopped answering, not the default five.
        topologyRefreshOnReconnectionAttemptStrategy: 1000,
        ...shared,
      });
      client.on('error', () => {});
      client.on('node-error', () => {});
      return client;
    };
    let cluster = fresh();
    let closed = false;
    // A cluster client makes one discovery attempt per connect(), so keep trying. An attempt that
    // hangs (a master of the topology it found is down, and a client that never reached a node
    // never asks for a new topology) is dropped for a fresh client, which finds the promoted replica.
    const retry = retrying(async () => {
      const attempt = cluster;
      try {
        await within(CLUSTER_CONNECT_TIMEOUT_MS, attempt.connect());
      } catch (error) {
        attempt.destroy();
        if (!closed) cluster = fresh();
        throw error;
      }
      if (closed) attempt.destroy();
    }, first);
    return {
      mode: 'cluster',
      firstConnection: first.promise,
      // A script call may touch only keys of one hash slot (CROSSSLOT otherwise). Keys are grouped by
      // key, not hash-tagged nor grouped by computed slot: two clients' keys share one of the 16384
      // slots only by chance, so slot groups would be per key anyway, and a tag shared by many
      // clients would pile their counters onto one master. Repeats of one key still go as one call.
      split: (batch) => {
        const byKey = new Map<string, (typeof batch)[number][]>();
        for (const increment of batch) byKey.get(increment.key)?.push(increment) ?? byKey.set(increment.key, [increment]);
        return [...byKey.values()];
      },
      increment: (increments) => countTogether(increments, (keys) => cluster.incrementWindows(keys)),
      get: (key) => cluster.get(key),
      async close() {
        closed = true;
        first.settle(false);
        retry.stop();
        cluster.destroy();
      },
    };
  }

  const sentinel = createSentinel({
    name: target.masterName,
    sentinelRootNodes: target.urls.map((url) => {
      const { hostname, port } = new URL(url);
      return { host: hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(port || 26379) };
    }),
    // Reads go to the master too (no replica pool), for the same reason as in a cluster.
    replicaPoolSize: 0,
    nodeClientOptions: secured,
    sentinelClientOptions: { username, password, socket: { ...secured.socket, reconnectStrategy: false as const } },
    ...shared,
  });
  sentinel.on('error', () => {});
  const retry = retrying(() => sentinel.connect(), first);
  return {
    mode: 'sentinel',
    firstConnection: first.promise,
    split: whole,
    increment: (increments) => countTogether(increments, (keys) => sentinel.incrementWindows(keys)),
    get: (key) => sentinel.get(key),
    async close() {
      first.settle(false);
      retry.stop();
      await sentinel.destroy().catch(() => {});
    },
  };
}
