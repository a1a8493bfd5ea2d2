/**
 * @module Cold start: spawn to the first 200, for each runtime's start-up bundle against a hello
 * world on the same runtime, the first MCP answer, and each serverless entry's bundle imported and
 * asked once against a fetch hello world. Besides wall time, the CPU the server used until then
 * (all its threads, from /proc), which other work on the machine moves far less.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { startFiles } from '../../scripts/bundle.mjs';
import { join } from 'node:path';
import { config, log, QUOTA } from './config.ts';
import { exchange, type RequestSpec } from './http.ts';
import { ROOT, sleep, start } from './proc.ts';
import { BASELINE_READY, command, ENTRY, LABEL, RUNTIMES, SERVICE_READY, START_DIR, type RuntimeName } from './runtimes.ts';
import { startRedis } from '../../test/support/redis.ts';
import { startRestServer } from '../../test/support/upstash.ts';

export interface ColdStart {
  /** A runtime, or a serverless entry's bundle (`vercel`, `lambda`...). */
  runtime: RuntimeName;
  entry?: string;
  service: number[];
  hello: number[];
  /** CPU milliseconds the server used from spawn to its first 200. */
  serviceCpu: number[];
  helloCpu: number[];
  /** Spawn to the first 200 of an MCP tools/call (the SDK loads on the first MCP request). */
  firstMcp: number[];
  error?: string;
}

const FIRST_MCP_CALL: RequestSpec = {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product_overview', arguments: {} } }),
};

/** CPU milliseconds used so far by a process's threads (schedstat counts nanoseconds; stat's ticks are 10 ms). */
export function threadsCpuMs(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total;
}

interface FirstAnswer {
  wall: number;
  cpu: number;
}

async function spawnToFirst200(cmd: [string, string[]], ready: RegExp, path: string, spec: RequestSpec = {}): Promise<FirstAnswer> {
  const t0 = performance.now();
  const server = await start(...cmd, { cpu: config.serverCpu, env: { PORT: '0', RATE_LIMIT_QUOTA: QUOTA }, ready });
  try {
    for (;;) {
      try {
        if ((await exchange(server.url + path, spec)).status === 200)
          return { wall: performance.now() - t0, cpu: threadsCpuMs(server.pid) };
      } catch {
        /* not answering yet */
      }
      await sleep(1);
    }
  } finally {
    await server.stop();
  }
}

export async function coldStart(runtime: RuntimeName): Promise<ColdStart> {
  const result: ColdStart = { runtime, service: [], hello: [], serviceCpu: [], helloCpu: [], firstMcp: [] };
  const service = () => spawnToFirst200(command(runtime, ENTRY[runtime]), SERVICE_READY, '/api/v1/product');
  const firstMcp = () => spawnToFirst200(command(runtime, ENTRY[runtime]), SERVICE_READY, '/mcp', FIRST_MCP_CALL);
  // The service runs a bundle of plain JavaScript, so Node's reference is a hello world in plain JavaScript too.
  const helloFile = runtime === 'node' ? 'bench/baseline/node-hello-plain.mjs' : `bench/baseline/${runtime}-hello.ts`;
  const hello = () => spawnToFirst200(command(runtime, helloFile), BASELINE_READY, '/');
  await pairedStarts(result, service, hello, LABEL[runtime], async () => result.firstMcp.push((await firstMcp()).wall));
  return result;
}

/**
 * The serverless entries: every start-up bundle (scripts/bundle.mjs) but the runtimes' servers, the bin and the Worker.
 * Each runs as its platform would load it (Deno for a `deno-*` entry, Node otherwise): imported by
 * bench/baseline/first-answer.mjs, which asks it for GET /api/v1/product as its platform would and
 * prints the 200, against the same probe on a fetch hello world.
 */
export function serverlessEntries(): string[] {
  const own = new Set<string>([...RUNTIMES, 'cli', 'workers']);
  return Object.keys(startFiles()).filter((name) => !own.has(name) && existsSync(join(ROOT, START_DIR, `${name}.js`)));
}

/**
 * The shared store the serverless rows are taken with, as the recipes deploy them: Redis over HTTP
 * (a redis-server behind the Upstash REST emulator, on loopback). A cold instance's first answer
 * then includes the store's start-up check and its first count, as on the platform.
 */
export async function serverlessStore(): Promise<{ env: Record<string, string>; dispose(): Promise<void> }> {
  const redis = await startRedis();
  const rest = await startRestServer(redis.url());
  return {
    env: rest.env,
    async dispose() {
      await rest.dispose();
      await redis.dispose();
    },
  };
}

/** Spawn to the probe's line announcing its first 200 (the probe then waits to be stopped). */
async function spawnToAnswer(cmd: [string, string[]], store: Record<string, string> = {}): Promise<FirstAnswer> {
  const t0 = performance.now();
  // PUBLIC_BASE_URL: the platforms' entries require it, as nothing else names their URL.
  const probe = await start(...cmd, {
    cpu: config.serverCpu,
    env: { PUBLIC_BASE_URL: 'https://api.example.com', RATE_LIMIT_QUOTA: QUOTA, ...store },
    ready: /^First answer (200)$/m,
  });
  const answer = { wall: performance.now() - t0, cpu: threadsCpuMs(probe.pid) };
  await probe.stop();
  return answer;
}

/** An entry's row: its bundle with the shared store `store` names (serverlessStore's variables), against a hello world with none. */
export async function serverlessColdStart(entry: string, store: Record<string, string> = {}): Promise<ColdStart> {
  const runtime: RuntimeName = entry.startsWith('deno') ? 'deno' : 'node';
  const result: ColdStart = { runtime, entry, service: [], hello: [], serviceCpu: [], helloCpu: [], firstMcp: [] };
  const probe = (module: string, env?: Record<string, string>) =>
    spawnToAnswer(command(runtime, 'bench/baseline/first-answer.mjs', [], [module]), env);
  const service = () => probe(`${START_DIR}/${entry}.js`, store);
  const hello = () => probe('bench/baseline/fetch-hello.mjs');
  await pairedStarts(result, service, hello, entry);
  return result;
}

/**
 * Starts the service and its hello world back to back, `config.coldRuns` times after one discarded
 * start of each (which fills the file cache), recording wall and CPU times; a failure ends the row.
 */
async function pairedStarts(
  result: ColdStart,
  service: () => Promise<FirstAnswer>,
  hello: () => Promise<FirstAnswer>,
  label: string,
  afterEach: () => Promise<unknown> = async () => {},
): Promise<void> {
  try {
    await service();
    await hello();
    for (let i = 0; i < config.coldRuns; i++) {
      const s = await service();
      const h = await hello();
      result.service.push(s.wall);
      result.serviceCpu.push(s.cpu);
      result.hello.push(h.wall);
      result.helloCpu.push(h.cpu);
      await afterEach();
    }
  } catch (error) {
    result.error = (error as Error).message.split('\n').slice(0, 3).join(' ');
    log(`${label} cold start: ${result.error}`);
  }
}
