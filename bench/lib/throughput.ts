/** @module Throughput over HTTP on one runtime: the service and its bare baseline loaded in interleaved rounds. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILES } from '../baseline/bodies.ts';
import { config, log, QUOTA } from './config.ts';
import { exchange, type RequestSpec } from './http.ts';
import { load, type ensureLoadTool, type LoadResult } from './load.ts';
import { has, sleep, start, type Running } from './proc.ts';
import { BASELINE_READY, command, ENTRY, LABEL, SERVICE_READY, type RuntimeName } from './runtimes.ts';
import { countsInMemory, INSTANCE_ENV, selectedScenarios, type Scenario, type ServiceInstance } from './scenarios.ts';
import { startStore, type RunningStore, type StoreKind } from './stores.ts';

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

export async function httpRuntime(runtime: RuntimeName, tool: ReturnType<typeof ensureLoadTool>): Promise<RuntimeHttp> {
  const result: RuntimeHttp = { runtime, checks: [], headerBytes: { service: 0, baseline: 0 }, runs: {} };
  const dir = mkdtempSync(join(tmpdir(), `bench-bodies-${runtime}-`));
  let service: Running | undefined;
  let baseline: Running | undefined;
  const stores: { store: RunningStore; instance: Running }[] = [];
  const instances = new Map<ServiceInstance, Running>();
  try {
    log(`${LABEL[runtime]}: starting the service entry and capturing its bytes`);
    service = await startService(runtime);
    const capture = async (spec: RequestSpec & { path: string }, status: number, encoding?: string) => {
      const answer = await exchange(service!.url + spec.path, spec);
      if (answer.status !== status || (encoding && answer.headers['content-encoding'] !== encoding)) {
        throw new Error(
          `${spec.path} answered ${answer.status} ${answer.headers['content-encoding'] ?? ''}, expected ${status} ${encoding ?? ''}`,
        );
      }
      return answer;
    };
    const product = await capture({ path: '/api/v1/product' }, 200);
    writeFileSync(join(dir, FILES.product), product.body);
    writeFileSync(join(dir, FILES.openapi), (await capture({ path: '/openapi.json' }, 200)).body);
    writeFileSync(
      join(dir, FILES.openapiGzip),
      (await capture({ path: '/openapi.json', headers: { 'Accept-Encoding': 'gzip' } }, 200, 'gzip')).body,
    );
    const notFound = await capture({ path: '/nope' }, 404);
    writeFileSync(join(dir, FILES.notFound), notFound.body);
    result.headerBytes.service = headerBytes(product.headers);
    writeFileSync(join(dir, FILES.productHeaders), JSON.stringify(contractHeaders(product.headers)));
    writeFileSync(join(dir, FILES.notFoundHeaders), JSON.stringify(contractHeaders(notFound.headers)));

    baseline = await start(...command(runtime, `bench/baseline/${runtime}.ts`), {
      cpu: config.serverCpu,
      env: { PORT: '0', BENCH_BODIES_DIR: dir },
      ready: BASELINE_READY,
    });
    for (const kind of new Set(selectedScenarios().flatMap((s) => (s.instance ? [s.instance] : [])))) {
      if (countsInMemory(kind)) {
        instances.set(kind, await startService(runtime, INSTANCE_ENV[kind]));
        continue;
      }
      if (!has('redis-server')) {
        log(`${LABEL[runtime]}: redis-server is not installed: the ${kind} row is not measured`);
        continue;
      }
      const started = await startStoreService(runtime, kind);
      stores.push(started);
      instances.set(kind, started.instance);
    }
    const serverOf = (s: Scenario) => (s.instance ? instances.get(s.instance) : service);
    const scenarios: Scenario[] = [];
    for (const s of selectedScenarios()) {
      if (!serverOf(s)) continue;
      const svc = await exchange(serverOf(s)!.url + s.request.path, s.request);
      if (s.reference === 'baseline') {
        const base = await exchange(baseline.url + (s.baselinePath ?? s.request.path), s.request);
        if (s.id === 'product') result.headerBytes.baseline = headerBytes(base.headers);
        const same = svc.status === base.status && svc.body.equals(base.body);
        result.checks.push({
          scenario: s.id,
          ok: same,
          note: same
            ? `both ${svc.status}, same ${svc.body.length} body bytes`
            : `service ${svc.status}/${svc.body.length} B, baseline ${base.status}/${base.body.length} B`,
        });
        scenarios.push(s);
      } else if (s.request.method === undefined) {
        // The product on another instance: the same bytes as the first instance's.
        const ok = svc.status === 200 && svc.body.equals(product.body);
        result.checks.push({
          scenario: s.id,
          ok,
          note: ok ? `200, the same ${svc.body.length} body bytes as the first instance` : `${svc.status}/${svc.body.length} B`,
        });
        if (ok) scenarios.push(s);
      } else {
        let note: string;
        let ok = false;
        try {
          const json = JSON.parse(svc.body.toString('utf8'));
          ok =
            svc.status === 200 &&
            json.result !== undefined &&
            !json.result.isError &&
            svc.headers['content-type']?.toString().includes('application/json') === true;
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
      if (s.reference === 'baseline')
        await load(tool, baseline.url + (s.baselinePath ?? s.request.path), s.request, opts(baseline.pid, config.warmupSeconds));
    }
    for (let round = 0; round < config.rounds; round++) {
      log(`${LABEL[runtime]}: round ${round + 1} of ${config.rounds}`);
      for (const s of scenarios) {
        // A B in even rounds, B A in odd ones, so a drift in machine load hits both sides alike.
        const sides =
          s.reference === 'baseline'
            ? round % 2 === 0
              ? (['service', 'baseline'] as const)
              : (['baseline', 'service'] as const)
            : (['service'] as const);
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
    for (const [kind, instance] of instances) if (countsInMemory(kind)) await instance.stop();
    for (const { store, instance } of stores) {
      await instance.stop();
      await store.stop();
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** The service's start-up bundle, never refusing the load: the memory store unless `env` names another. */
const startService = (runtime: RuntimeName, env: Record<string, string> = {}): Promise<Running> =>
  start(...command(runtime, ENTRY[runtime]), {
    cpu: config.serverCpu,
    env: { PORT: '0', RATE_LIMIT_QUOTA: QUOTA, ...env },
    ready: SERVICE_READY,
  });

/** A shared store and a second service instance counting in it, once its health says so. */
async function startStoreService(runtime: RuntimeName, kind: StoreKind): Promise<{ store: RunningStore; instance: Running }> {
  const store = await startStore(kind);
  const instance = await startService(runtime, store.env);
  for (let tries = 0; ; tries++) {
    const health = JSON.parse((await exchange(`${instance.url}/api/v1/health`)).body.toString('utf8'));
    if (health.status === 'ok' && health.redisMode === store.redisMode) break;
    if (tries > 100) throw new Error(`the ${kind}-backed service never became healthy: ${JSON.stringify(health)}`);
    await sleep(50);
  }
  return { store, instance };
}

/** The headers an answer carries by the contract: all but the date and the connection's own. */
function contractHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const contract: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name) && typeof value === 'string') contract[name] = value;
  }
  return contract;
}
