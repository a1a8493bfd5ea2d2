/**
 * @module Cloudflare Workers: CPU time per request in workerd (Miniflare), for a REST GET and an MCP
 * tools/call. The Worker is bundled as `wrangler deploy` would (dry run) and served with its Durable
 * Object counter; the CPU is what the workerd process used (all threads, from /proc) over a run of
 * requests, divided by their number: an upper bound of what Cloudflare bills, since it also holds
 * workerd's own HTTP work and the counter's. The first request of a fresh isolate is shown apart.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { threadsCpuMs } from './coldstart.ts';
import { QUOTA } from './config.ts';
import { ROOT } from './proc.ts';

export interface WorkersCpu {
  requests: number;
  /** CPU milliseconds per request, one figure per round, per request kind. */
  rest: number[];
  /** A tools/call the SDK answers (each differs in `_meta`, so none is a replay). */
  mcp: number[];
  /** The same tools/call again: answered from the replay cache (src/mcp/replay.ts). */
  mcpReplayed: number[];
  /** CPU milliseconds of the first request of a fresh isolate (module start included). */
  firstRest?: number;
  error?: string;
}

const mcpCall = (meta?: number) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_product_overview', arguments: {}, ...(meta === undefined ? {} : { _meta: { n: meta } }) },
  }),
});

/** The workerd processes started by this process (Miniflare's runtime). */
function workerdPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.includes('(workerd)') && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    });
}

const workerdCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + threadsCpuMs(pid), 0);

export async function workersCpu(requests = 300, rounds = 3): Promise<WorkersCpu> {
  const result: WorkersCpu = { requests, rest: [], mcp: [], mcpReplayed: [] };
  const dir = mkdtempSync(join(tmpdir(), 'bench-workers-'));
  const { Miniflare } = await import('miniflare');
  let mf: InstanceType<typeof Miniflare> | undefined;
  try {
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', dir], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    });
    mf = new Miniflare({
      host: '127.0.0.1',
      port: 0,
      cf: false,
      modules: [{ type: 'ESModule', path: join(dir, 'workers.js') }],
      modulesRoot: dir,
      compatibilityDate: '2026-04-26',
      compatibilityFlags: ['nodejs_compat'],
      // {base} is never a request's Host on Workers: the deployment names it.
      bindings: { RATE_LIMIT_QUOTA: QUOTA, PUBLIC_BASE_URL: 'http://worker.test' },
      durableObjects: { RATE_LIMIT_COUNTER: 'RateLimitCounter' },
    });
    await mf.ready;
    const pids = workerdPids();
    if (pids.length === 0) throw new Error('no workerd process found under this one');
    const get = async (init?: ReturnType<typeof mcpCall>, path = '/api/v1/product') => {
      const response = await mf!.dispatchFetch(`http://worker.test${path}`, {
        ...init,
        headers: { 'CF-Connecting-IP': '203.0.113.7', ...init?.headers },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    };
    let before = workerdCpu(pids);
    await get();
    result.firstRest = workerdCpu(pids) - before;
    // Warm both paths (the SDK loads on the first MCP request), then measure in interleaved rounds.
    let n = 0;
    for (let i = 0; i < 50; i++) await get(mcpCall(n++), '/mcp');
    for (let i = 0; i < 50; i++) await get(mcpCall(), '/mcp');
    const kinds = {
      rest: () => get(),
      mcp: () => get(mcpCall(n++), '/mcp'),
      mcpReplayed: () => get(mcpCall(), '/mcp'),
    };
    for (let round = 0; round < rounds; round++) {
      for (const [kind, send] of Object.entries(kinds) as [keyof typeof kinds, () => Promise<void>][]) {
        before = workerdCpu(pids);
        for (let i = 0; i < requests; i++) await send();
        result[kind].push((workerdCpu(pids) - before) / requests);
      }
    }
  } catch (error) {
    result.error = (error as Error).message.split('\n')[0];
  } finally {
    await mf?.dispose().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}
