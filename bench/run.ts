/**
 * @module `npm run bench`: throughput of the service against a bare baseline on Bun, Deno and Node,
 * cold start, memory under many clients, and the Redis store against the memory store.
 *
 * Not a test: nothing here asserts; it prints figures and ratios, writes them to README.md (between
 * the bench markers) and the raw numbers to bench/results/. Ratios from one interleaved run are the
 * figures to read: other work on the machine moves the absolute numbers.
 *
 * Environment knobs (defaults in brackets): BENCH_RUNTIMES [bun,deno,node], BENCH_ROUNDS [4],
 * BENCH_SECONDS [2], BENCH_CONNECTIONS [32], BENCH_COLD_RUNS [5], BENCH_RSS_REQUESTS [1000000],
 * BENCH_SKIP (any of http,cold,rss,dispatch,redis), BENCH_SCENARIOS (ids of the HTTP rows to run, e.g.
 * product,mcp2025; a row measured against another brings that one along), BENCH_AUTOCANNON=1
 * (force autocannon), BENCH_NO_APT=1.
 * README.md is rewritten only by a full run (all runtimes, nothing skipped, every row).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILES, FLOOR_PATH } from './baseline/bodies.ts';
import { exchange, type RequestSpec } from './lib/http.ts';
import { ensureLoadTool, load, type LoadResult } from './lib/load.ts';
import { freePort, has, ROOT, run, sleep, start, TASKSET, type Running } from './lib/proc.ts';
import { renderReport, updateReadme, type Report } from './lib/report.ts';
import { BASELINE_READY, command, ENTRY, LABEL, RUNTIMES, SERVICE_READY, version, type RuntimeName } from './lib/runtimes.ts';
import { median } from './lib/stats.ts';

const started = performance.now();
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
const num = (value: string | undefined, fallback: number) => (value && Number.isFinite(Number(value)) ? Number(value) : fallback);

const env = process.env;
const skip = new Set((env.BENCH_SKIP ?? '').split(',').map((s) => s.trim()).filter(Boolean));
const runtimes = (env.BENCH_RUNTIMES ?? RUNTIMES.join(',')).split(',').map((s) => s.trim()) as RuntimeName[];
const twoCores = cpus().length >= 2;
const config = {
  runtimes,
  rounds: num(env.BENCH_ROUNDS, 4),
  seconds: num(env.BENCH_SECONDS, 2),
  warmupSeconds: 1,
  connections: num(env.BENCH_CONNECTIONS, 32),
  coldRuns: num(env.BENCH_COLD_RUNS, 5),
  rssRequests: num(env.BENCH_RSS_REQUESTS, 1_000_000),
  rssClients: 100_000,
  storeRounds: 4,
  storeSeconds: 1.5,
  /** The server (and in-process runs) on CPU 0, the load generator (and Redis) on CPU 1. */
  serverCpu: twoCores ? 0 : undefined,
  loadCpu: twoCores ? 1 : undefined,
};
const onlyScenarios = env.BENCH_SCENARIOS ? new Set(env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : undefined;
const fullRun = RUNTIMES.every((r) => runtimes.includes(r)) && skip.size === 0 && !onlyScenarios;

// ---------------------------------------------------------------------------------------------
// What is measured

const QUOTA = '1000000000'; // the largest RATE_LIMIT_QUOTA the configuration accepts: never refused

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const MCP_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product_overview', arguments: {} } };
const MODERN = '2026-07-28';

export interface Scenario {
  id: string;
  label: string;
  request: RequestSpec & { path: string };
  /** `baseline`: the bare server with the same request; otherwise the id of a service scenario. */
  reference: 'baseline' | string;
  /** The baseline's path when it differs from the service's. */
  baselinePath?: string;
  /** What the reference column says when it is not the bare server. */
  referenceLabel?: string;
  /** The ratio to reach, per runtime. */
  target?: Partial<Record<RuntimeName, number>>;
  /** `redis`: measured on a second service instance counting in a local redis-server. */
  instance?: 'redis';
}

const SCENARIOS: Scenario[] = [
  { id: 'product', label: 'GET /api/v1/product', request: { path: '/api/v1/product' }, reference: 'baseline', target: { bun: 0.8, node: 0.85 } },
  {
    id: 'productFloor',
    label: 'GET /api/v1/product',
    request: { path: '/api/v1/product' },
    reference: 'baseline',
    baselinePath: FLOOR_PATH,
    referenceLabel: "sending the service's headers, built the fastest way for the runtime",
    target: { deno: 0.95 },
  },
  { id: 'notFound', label: 'GET /nope (404)', request: { path: '/nope' }, reference: 'baseline' },
  { id: 'openapi', label: 'GET /openapi.json', request: { path: '/openapi.json' }, reference: 'baseline' },
  { id: 'openapiGzip', label: 'GET /openapi.json, gzip', request: { path: '/openapi.json', headers: { 'Accept-Encoding': 'gzip' } }, reference: 'baseline' },
  {
    id: 'mcp2025',
    label: 'MCP tools/call get_product_overview (2025-06-18, no initialize)',
    request: { path: '/mcp', method: 'POST', headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': '2025-06-18' }, body: JSON.stringify(MCP_CALL) },
    reference: 'product',
    target: { bun: 0.5, deno: 0.5, node: 0.5 },
  },
  {
    id: 'mcp2026',
    label: `MCP tools/call get_product_overview (${MODERN} envelope)`,
    request: {
      path: '/mcp',
      method: 'POST',
      headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_product_overview' },
      body: JSON.stringify({
        ...MCP_CALL,
        params: {
          ...MCP_CALL.params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
          },
        },
      }),
    },
    reference: 'product',
    target: { bun: 0.5, deno: 0.5, node: 0.5 },
  },
  {
    id: 'productRedis',
    label: 'GET /api/v1/product, Redis store (wrk over HTTP)',
    request: { path: '/api/v1/product' },
    reference: 'product',
    referenceLabel: 'the same with the memory store',
    target: { bun: 0.7, deno: 0.7, node: 0.7 },
    instance: 'redis',
  },
];

/** The rows BENCH_SCENARIOS names, with the service rows they are measured against. */
function selectedScenarios(): Scenario[] {
  if (!onlyScenarios) return SCENARIOS;
  const wanted = new Set(onlyScenarios);
  for (const s of SCENARIOS) if (wanted.has(s.id) && s.reference !== 'baseline') wanted.add(s.reference);
  return SCENARIOS.filter((s) => wanted.has(s.id));
}

// ---------------------------------------------------------------------------------------------

export interface RuntimeHttp {
  runtime: RuntimeName;
  checks: { scenario: string; ok: boolean; note: string }[];
  headerBytes: { service: number; baseline: number };
  runs: Record<string, { service: LoadResult[]; baseline: LoadResult[] }>;
  error?: string;
}

function headerBytes(raw: Record<string, string | string[] | undefined>): number {
  let n = 0;
  for (const [name, value] of Object.entries(raw)) for (const v of [value ?? ''].flat()) n += name.length + String(v).length + 4;
  return n;
}

async function httpRuntime(runtime: RuntimeName, tool: ReturnType<typeof ensureLoadTool>): Promise<RuntimeHttp> {
  const result: RuntimeHttp = { runtime, checks: [], headerBytes: { service: 0, baseline: 0 }, runs: {} };
  const dir = mkdtempSync(join(tmpdir(), `bench-bodies-${runtime}-`));
  let service: Running | undefined;
  let baseline: Running | undefined;
  let redis: Running | undefined;
  let redisService: Running | undefined;
  try {
    log(`${LABEL[runtime]}: starting the service entry and capturing its bytes`);
    service = await start(...command(runtime, ENTRY[runtime]), { cpu: config.serverCpu, env: { PORT: '0', RATE_LIMIT_QUOTA: QUOTA }, ready: SERVICE_READY });
    const capture = async (spec: RequestSpec & { path: string }, status: number, encoding?: string) => {
      const answer = await exchange(service!.url + spec.path, spec);
      if (answer.status !== status || (encoding && answer.headers['content-encoding'] !== encoding)) {
        throw new Error(`${spec.path} answered ${answer.status} ${answer.headers['content-encoding'] ?? ''}, expected ${status} ${encoding ?? ''}`);
      }
      return answer;
    };
    const product = await capture({ path: '/api/v1/product' }, 200);
    writeFileSync(join(dir, FILES.product), product.body);
    writeFileSync(join(dir, FILES.openapi), (await capture({ path: '/openapi.json' }, 200)).body);
    writeFileSync(join(dir, FILES.openapiGzip), (await capture({ path: '/openapi.json', headers: { 'Accept-Encoding': 'gzip' } }, 200, 'gzip')).body);
    writeFileSync(join(dir, FILES.notFound), (await capture({ path: '/nope' }, 404)).body);
    result.headerBytes.service = headerBytes(product.headers);
    const contractHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(product.headers)) {
      if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name) && typeof value === 'string') contractHeaders[name] = value;
    }
    writeFileSync(join(dir, FILES.productHeaders), JSON.stringify(contractHeaders));

    baseline = await start(...command(runtime, `bench/baseline/${runtime}.ts`), { cpu: config.serverCpu, env: { PORT: '0', BENCH_BODIES_DIR: dir }, ready: BASELINE_READY });
    if (selectedScenarios().some((s) => s.instance === 'redis')) {
      if (!has('redis-server')) log(`${LABEL[runtime]}: redis-server is not installed: the Redis row is not measured`);
      else ({ redis, redisService } = await startRedisService(runtime));
    }
    const serverOf = (s: Scenario) => (s.instance === 'redis' ? redisService : service);
    const scenarios: Scenario[] = [];
    for (const s of selectedScenarios()) {
      if (!serverOf(s)) continue;
      const svc = await exchange(serverOf(s)!.url + s.request.path, s.request);
      if (s.instance === 'redis') {
        const ok = svc.status === 200 && svc.body.equals(product.body);
        result.checks.push({ scenario: s.id, ok, note: ok ? `200, the same ${svc.body.length} body bytes as the memory store` : `${svc.status}/${svc.body.length} B` });
        if (ok) scenarios.push(s);
        continue;
      }
      if (s.reference === 'baseline') {
        const base = await exchange(baseline.url + (s.baselinePath ?? s.request.path), s.request);
        if (s.id === 'product') result.headerBytes.baseline = headerBytes(base.headers);
        const same = svc.status === base.status && svc.body.equals(base.body);
        result.checks.push({ scenario: s.id, ok: same, note: same ? `both ${svc.status}, same ${svc.body.length} body bytes` : `service ${svc.status}/${svc.body.length} B, baseline ${base.status}/${base.body.length} B` });
        scenarios.push(s);
      } else {
        let note: string;
        let ok = false;
        try {
          const json = JSON.parse(svc.body.toString('utf8'));
          ok = svc.status === 200 && json.result !== undefined && !json.result.isError && svc.headers['content-type']?.toString().includes('application/json') === true;
          note = ok ? `200 JSON result, ${svc.body.length} bytes` : `${svc.status}: ${svc.body.toString('utf8').slice(0, 300)}`;
        } catch {
          note = `${svc.status}: ${svc.body.toString('utf8').slice(0, 300)}`;
        }
        result.checks.push({ scenario: s.id, ok, note });
        if (ok) scenarios.push(s);
        else log(`${LABEL[runtime]}: ${s.id} not measured: ${note}`);
      }
    }
    for (const s of scenarios) result.runs[s.id] = { service: [], baseline: [] };

    const opts = (pid: number, seconds: number) => ({ seconds, connections: config.connections, cpu: config.loadCpu, serverPid: pid });
    log(`${LABEL[runtime]}: warming up`);
    for (const s of scenarios) {
      await load(tool, serverOf(s)!.url + s.request.path, s.request, opts(serverOf(s)!.pid, config.warmupSeconds));
      if (s.reference === 'baseline') await load(tool, baseline.url + (s.baselinePath ?? s.request.path), s.request, opts(baseline.pid, config.warmupSeconds));
    }
    for (let round = 0; round < config.rounds; round++) {
      log(`${LABEL[runtime]}: round ${round + 1} of ${config.rounds}`);
      for (const s of scenarios) {
        // A B in even rounds, B A in odd ones, so a drift in machine load hits both sides alike.
        const sides = s.reference === 'baseline' ? (round % 2 === 0 ? (['service', 'baseline'] as const) : (['baseline', 'service'] as const)) : (['service'] as const);
        for (const side of sides) {
          const server = side === 'service' ? serverOf(s)! : baseline;
          const path = side === 'baseline' ? (s.baselinePath ?? s.request.path) : s.request.path;
          result.runs[s.id]![side].push(await load(tool, server.url + path, s.request, opts(server.pid, config.seconds)));
        }
      }
    }
  } catch (error) {
    result.error = (error as Error).message;
    log(`${LABEL[runtime]}: ${result.error}`);
  } finally {
    await baseline?.stop();
    await service?.stop();
    await redisService?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** A redis-server on the load CPU and a second service instance counting in it, once its health says so. */
async function startRedisService(runtime: RuntimeName): Promise<{ redis: Running; redisService: Running }> {
  const port = await freePort();
  const redis = await start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    cpu: config.loadCpu,
    ready: /(Ready to accept connections)/,
  });
  const env = { PORT: '0', RATE_LIMIT_QUOTA: QUOTA, REDIS_URL: `redis://127.0.0.1:${port}` };
  const redisService = await start(...command(runtime, ENTRY[runtime]), { cpu: config.serverCpu, env, ready: SERVICE_READY });
  for (let tries = 0; ; tries++) {
    const health = JSON.parse((await exchange(redisService.url + '/api/v1/health')).body.toString('utf8'));
    if (health.status === 'ok' && health.rateLimitStore === 'redis') break;
    if (tries > 100) throw new Error(`the Redis-backed service never became healthy: ${JSON.stringify(health)}`);
    await sleep(50);
  }
  return { redis, redisService };
}

// ---------------------------------------------------------------------------------------------

export interface ColdStart {
  runtime: RuntimeName;
  service: number[];
  hello: number[];
  /** Spawn to the first 200 of an MCP tools/call (the SDK loads on the first MCP request). */
  firstMcp: number[];
  error?: string;
}

const FIRST_MCP_CALL: RequestSpec = {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product_overview', arguments: {} } }),
};

async function spawnToFirst200(cmd: [string, string[]], ready: RegExp, path: string, spec: RequestSpec = {}): Promise<number> {
  const t0 = performance.now();
  const server = await start(...cmd, { cpu: config.serverCpu, env: { PORT: '0', RATE_LIMIT_QUOTA: QUOTA }, ready });
  try {
    for (;;) {
      try {
        if ((await exchange(server.url + path, spec)).status === 200) return performance.now() - t0;
      } catch {
        /* not answering yet */
      }
      await sleep(1);
    }
  } finally {
    await server.stop();
  }
}

async function coldStart(runtime: RuntimeName): Promise<ColdStart> {
  const result: ColdStart = { runtime, service: [], hello: [], firstMcp: [] };
  const service = () => spawnToFirst200(command(runtime, ENTRY[runtime]), SERVICE_READY, '/api/v1/product');
  const firstMcp = () => spawnToFirst200(command(runtime, ENTRY[runtime]), SERVICE_READY, '/mcp', FIRST_MCP_CALL);
  // Node runs the compiled service, so its reference is the same hello world as plain JavaScript.
  const helloFile = runtime === 'node' ? 'bench/baseline/node-hello-plain.mjs' : `bench/baseline/${runtime}-hello.ts`;
  const hello = () => spawnToFirst200(command(runtime, helloFile), BASELINE_READY, '/');
  try {
    // One discarded start of each fills the file cache.
    await service();
    await hello();
    for (let i = 0; i < config.coldRuns; i++) {
      result.service.push(await service());
      result.hello.push(await hello());
      result.firstMcp.push(await firstMcp());
    }
  } catch (error) {
    result.error = (error as Error).message;
    log(`${LABEL[runtime]} cold start: ${result.error}`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------

async function inproc(args: string[], nodeFlags: string[] = []): Promise<unknown> {
  const out = await run(process.execPath, [...nodeFlags, '--import', 'tsx', 'bench/inproc.ts', ...args], { cpu: config.serverCpu });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

async function redisVsMemory(): Promise<{ skipped?: string; result?: unknown }> {
  if (!has('redis-server')) return { skipped: 'redis-server is not installed (apt-get install -y redis-server)' };
  const port = await freePort();
  const redis = await start('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    cpu: config.loadCpu,
    ready: /(Ready to accept connections)/,
  });
  try {
    return { result: await inproc(['stores', `redis://127.0.0.1:${port}`, String(config.storeRounds), String(config.storeSeconds)]) };
  } catch (error) {
    return { skipped: `failed: ${(error as Error).message.slice(0, 300)}` };
  } finally {
    await redis.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  // Node serves the build in dist/, as `npm run start:node` does.
  await run('npm', ['run', 'build'], {});
  const tool = ensureLoadTool(log);
  const cpuModel = /model name\s*:\s*(.*)/.exec(await import('node:fs').then((fs) => fs.readFileSync('/proc/cpuinfo', 'utf8')).catch(() => ''))?.[1] ?? cpus()[0]?.model ?? '?';
  const report: Report = {
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpuModel, taskset: TASKSET },
    versions: Object.fromEntries(RUNTIMES.map((r) => [r, version(r)])) as Record<RuntimeName, string>,
    tool,
    config,
    scenarios: selectedScenarios().map(({ id, label, reference, referenceLabel, target }) => ({ id, label, reference, referenceLabel, target })),
    http: [],
    cold: [],
  };
  log(`load generator: ${tool.name} ${tool.version}; ${config.rounds} rounds of ${config.seconds} s; ${config.connections} connections; taskset ${TASKSET ? 'yes' : 'no'}`);

  if (!skip.has('http')) for (const runtime of runtimes) report.http.push(await httpRuntime(runtime, tool));
  if (!skip.has('cold')) {
    for (const runtime of runtimes) {
      log(`${LABEL[runtime]}: cold start, ${config.coldRuns} runs`);
      report.cold.push(await coldStart(runtime));
    }
  }
  if (!skip.has('rss')) {
    log(`Node in-process: ${config.rssRequests.toLocaleString('en-US')} requests over ${config.rssClients.toLocaleString('en-US')} client addresses`);
    try {
      report.rss = await inproc(['rss', String(config.rssRequests), String(config.rssClients)], ['--expose-gc']);
    } catch (error) {
      report.rssError = (error as Error).message.slice(0, 500);
    }
  }
  if (!skip.has('dispatch')) {
    log('Node in-process: the documents map against itty-router');
    try {
      report.dispatch = await inproc(['dispatch']);
    } catch (error) {
      report.dispatchError = (error as Error).message.slice(0, 500);
    }
  }
  if (!skip.has('redis')) {
    log('Node in-process: Redis store against memory store');
    report.stores = await redisVsMemory();
  }
  report.seconds = (performance.now() - started) / 1000;

  const markdown = renderReport(report);
  console.log(markdown);
  const results = join(ROOT, 'bench/results');
  mkdirSync(results, { recursive: true });
  const json = JSON.stringify(report, null, 2);
  const file = join(results, `${report.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, json);
  writeFileSync(join(results, 'latest.json'), json);
  log(`raw results: ${file}`);
  if (fullRun) {
    updateReadme(markdown);
    log('README.md: Performance section updated');
  } else {
    log('partial run (BENCH_RUNTIMES or BENCH_SKIP): README.md left as it is');
  }
  log(`done in ${report.seconds.toFixed(0)} s`);
}

await main();
process.exit(0);
