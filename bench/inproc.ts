/**
 * @module In-process measurements (no HTTP): the handler called directly with a synthetic client
 * address. Run by bench/run.ts as a child process; prints one JSON line.
 *
 *   rss [requests] [clients]   RSS and heap before and after `requests` calls spread over `clients` addresses
 *   stores <redisUrl> [rounds] [seconds]   handler throughput with the Redis store against the memory store
 *   dispatch [calls]   finding a path's target by exact path in a Map, as the handler does, against itty-router's Router.fetch over the same paths
 */
import { Router } from 'itty-router';
import { checkFacts } from '../src/facts/check.ts';
import { createHandler, type Handler } from '../src/handler.ts';
import { pathOf } from '../src/http/prepared.ts';
import { MemoryStore } from '../src/ratelimit/stores/memory.ts';
import { pathsOf } from '../src/route.ts';
import { ROUTES } from '../src/routes.ts';
import sampleFacts from '../src/facts/sample-facts.json' with { type: 'json' };

const BASE = 'http://127.0.0.1:8787';
const facts = checkFacts('(shipped sample)', sampleFacts);
const [mode, ...args] = process.argv.slice(2);
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

function address(i: number): string {
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}

async function rss(requests: number, clients: number) {
  const store = new MemoryStore();
  // A one-hour window keeps every client of the run in the store at once: the memory store's worst case.
  const handler = await createHandler({ publicBaseUrl: BASE, facts, rateLimit: { quota: 1_000_000_000, windowSeconds: 3600, store } });
  const addresses = Array.from({ length: clients }, (_, i) => address(i));
  const url = `${BASE}/api/v1/product`;
  const batch = 256;
  const call = (i: number) => handler(new Request(url), { clientAddress: addresses[i % clients] });
  for (let i = 0; i < 20_000; i += batch)
    await Promise.all(Array.from({ length: batch }, () => handler(new Request(url), { clientAddress: 'warm-up' })));
  const sample = (label: string, done: number) => {
    gc();
    const m = process.memoryUsage();
    return { label, requests: done, rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), storeSize: store.size };
  };
  const samples = [sample('before', 0)];
  const checkpoints = new Set(
    [clients, ...[0.25, 0.5, 0.75, 1].map((f) => Math.floor(requests * f))].filter((c) => c > 0 && c <= requests),
  );
  const t0 = performance.now();
  let statuses = 0;
  for (let i = 0; i < requests; ) {
    const n = Math.min(batch, requests - i);
    const responses = await Promise.all(Array.from({ length: n }, (_, k) => call(i + k)));
    for (const r of responses) if (r.status !== 200) statuses++;
    i += n;
    for (const c of checkpoints)
      if (i >= c && i - n < c) samples.push(sample(c === clients ? `after ${c} (every client seen)` : `after ${c}`, i));
  }
  const seconds = (performance.now() - t0) / 1000;
  await handler.close();
  return {
    mode: 'rss',
    requests,
    clients,
    seconds,
    rps: requests / seconds,
    non200: statuses,
    peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
    samples,
  };
}

async function throughput(handler: Handler, seconds: number, concurrency: number, clients: number) {
  const url = `${BASE}/api/v1/product`;
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  let bad = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = w; performance.now() < deadline; i += concurrency) {
        const response = await handler(new Request(url), { clientAddress: address(i % clients) });
        if (response.status !== 200) bad++;
        done++;
      }
    }),
  );
  return { rps: done / ((performance.now() - t0) / 1000), non200: bad };
}

async function stores(redisUrl: string, rounds: number, seconds: number) {
  const options = { publicBaseUrl: BASE, facts };
  const memory = await createHandler({ ...options, rateLimit: { quota: 1_000_000_000 } });
  const redis = await createHandler({ ...options, rateLimit: { quota: 1_000_000_000, redisUrl } });
  const health = async () =>
    (await (await redis(new Request(`${BASE}/api/v1/health`), { clientAddress: 'probe' })).json()) as { status: string; reason?: string };
  // The client connects in the background; until it is ready the limiter falls back to memory.
  let ready = false;
  for (let tries = 0; tries < 100 && !ready; tries++) {
    await redis(new Request(`${BASE}/api/v1/product`), { clientAddress: 'probe' });
    ready = (await health()).status === 'ok';
    if (!ready) await new Promise((r) => setTimeout(r, 50));
  }
  if (!ready) throw new Error(`Redis store never became ready: ${JSON.stringify(await health())}`);
  await throughput(memory, 0.5, 32, 1000);
  await throughput(redis, 0.5, 32, 1000);
  const results: { memory: number[]; redis: number[]; non200: number } = { memory: [], redis: [], non200: 0 };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? (['memory', 'redis'] as const) : (['redis', 'memory'] as const);
    for (const which of order) {
      const t = await throughput(which === 'memory' ? memory : redis, seconds, 32, 1000);
      results[which].push(t.rps);
      results.non200 += t.non200;
    }
  }
  const after = await health();
  await memory.close();
  await redis.close();
  return { mode: 'stores', rounds, seconds, concurrency: 32, clients: 1000, ...results, redisHealthAfter: after };
}

/**
 * What dispatching through the route table's Map costs (the handler cuts the path from the URL and
 * finds its target by exact path) against itty-router used as designed (Router.fetch parses the URL
 * and its query, then tries each registered pattern in order), every path of the table registered
 * in its order, for a path early and one late in the table.
 */
async function dispatch(calls: number) {
  const paths = ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => path));
  const map = new Map<string, string>();
  const router = Router();
  for (const path of paths) {
    map.set(path, path);
    router.get(path, () => path);
  }
  const nsPerCall = async (find: () => unknown) => {
    for (let i = 0; i < calls / 10; i++) await find();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await find();
    return ((performance.now() - t0) * 1e6) / calls;
  };
  const results = [];
  for (const path of ['/api/v1/product', paths.at(-1)!]) {
    const request = new Request(`${BASE}${path}`);
    const viaMap = await nsPerCall(() => map.get(pathOf(request.url)));
    const viaRouter = await nsPerCall(() => router.fetch(request));
    if (map.get(pathOf(request.url)) !== path || (await router.fetch(request)) !== path) throw new Error(`${path} not found by both`);
    results.push({ path, mapNs: viaMap, routerNs: viaRouter });
  }
  return { mode: 'dispatch', calls, registered: paths.length, results };
}

const out =
  mode === 'dispatch'
    ? await dispatch(Number(args[0] ?? 200_000))
    : mode === 'rss'
      ? await rss(Number(args[0] ?? 1_000_000), Number(args[1] ?? 100_000))
      : mode === 'stores'
        ? await stores(args[0]!, Number(args[1] ?? 4), Number(args[2] ?? 1.5))
        : undefined;
if (!out) throw new Error('usage: inproc.ts rss|stores|dispatch ...');
console.log(JSON.stringify(out));
process.exit(0);
