import type { ColdStart } from './coldstart.ts';
import type { WorkersCpu } from './workers.ts';
import type { Scenario } from './scenarios.ts';
import type { RuntimeHttp } from './throughput.ts';
import type { LoadResult, Tool } from './load.ts';
import { LABEL, type RuntimeName } from './runtimes.ts';
import { fixed, int, median, ms, pct } from './stats.ts';

export interface RssSample {
  label: string;
  requests: number;
  rssMb: number;
  heapUsedMb: number;
  storeSize: number;
}

export interface Report {
  date: string;
  machine: { cores: number; cpuModel: string; taskset: boolean };
  versions: Record<RuntimeName, string>;
  tool: Tool;
  config: {
    rounds: number;
    seconds: number;
    connections: number;
    coldRuns: number;
    rssRequests: number;
    rssClients: number;
    storeRounds: number;
    storeSeconds: number;
    serverCpu?: number;
    loadCpu?: number;
  };
  scenarios: Pick<Scenario, 'id' | 'label' | 'reference' | 'referenceLabel' | 'target' | 'status'>[];
  http: RuntimeHttp[];
  cold: ColdStart[];
  workers?: WorkersCpu;
  rss?: unknown;
  rssError?: string;
  stores?: { skipped?: string; result?: unknown };
  dispatch?: unknown;
  dispatchError?: string;
  seconds?: number;
}

/** Issue 31: spawn to first 200 at most twice the same runtime's hello world; Workers MCP at most 5 ms of CPU. */
const COLD_START_TARGET = 2;
const WORKERS_MCP_TARGET_MS = 5;

const BARE: Record<RuntimeName, string> = { bun: 'bare Bun.serve', deno: 'bare Deno.serve', node: 'bare node:http' };

export interface Row {
  runtime: RuntimeName;
  scenario: string;
  serviceRps: number;
  serviceP99: number;
  referenceRps: number;
  referenceP99: number;
  ratio: number;
  /** The same ratio per server CPU-second: steadier when other work takes CPU from the server. */
  cpuRatio: number;
  serviceCpu: number;
  referenceCpu: number;
}

/** Medians across rounds; the ratio is the median of the per-round ratios (each pair measured back to back). */
export function summarise(http: RuntimeHttp, scenario: Report['scenarios'][number]): Row | undefined {
  const runs = http.runs[scenario.id];
  if (!runs || runs.service.length === 0) return undefined;
  const reference: LoadResult[] = scenario.reference === 'baseline' ? runs.baseline : (http.runs[scenario.reference]?.service ?? []);
  const ratios = runs.service.map((s, i) => s.rps / (reference[i]?.rps ?? NaN));
  const perCpu = (x: LoadResult | undefined) => (x?.serverCpu ? x.rps / x.serverCpu : NaN);
  const cpuRatios = runs.service.map((s, i) => perCpu(s) / perCpu(reference[i]));
  const m = (xs: LoadResult[], pick: (x: LoadResult) => number | undefined) => median(xs.map((x) => pick(x) ?? NaN));
  return {
    runtime: http.runtime,
    scenario: scenario.id,
    serviceRps: m(runs.service, (x) => x.rps),
    serviceP99: m(runs.service, (x) => x.p99Ms),
    referenceRps: m(reference, (x) => x.rps),
    referenceP99: m(reference, (x) => x.p99Ms),
    ratio: median(ratios),
    cpuRatio: median(cpuRatios),
    serviceCpu: m(runs.service, (x) => x.serverCpu),
    referenceCpu: m(reference, (x) => x.serverCpu),
  };
}

export function renderReport(report: Report): string {
  const { config, tool, machine, versions } = report;
  const out: string[] = [];
  const pinning =
    machine.taskset && config.serverCpu !== undefined
      ? `servers pinned to CPU ${config.serverCpu}, load generator to CPU ${config.loadCpu} (taskset)`
      : 'no CPU pinning';
  out.push(
    `Measured by \`npm run bench\` on ${report.date.slice(0, 10)}: ${machine.cores} cores (${machine.cpuModel}), ` +
      `Bun ${versions.bun}, Deno ${versions.deno}, Node ${versions.node}. Load from ${tool.name} ${tool.version} ` +
      `(1 thread, ${config.connections} connections), ${pinning}; ${config.rounds} interleaved rounds of ${config.seconds} s ` +
      `(service and baseline back to back, A B then B A). Figures are medians across rounds; a ratio is the median of the ` +
      `per-round ratios. "Per CPU" divides each side's req/s by the CPU its server process used during the run (from /proc), ` +
      `which stays steadier than req/s when other work on the machine takes CPU from the server. Other work shared the machine: ` +
      `read the ratios rather than the absolute numbers.` +
      (tool.note ? ` Note: ${tool.note}.` : ''),
  );

  if (report.http.length > 0) {
    out.push('', '### Throughput against a bare server on the same runtime', '');
    out.push(
      'The baseline answers the exact bytes the service sends (product JSON, the 404 problem body, the OpenAPI document and its gzip coding) with no logic. ' +
        "The second product row compares against the same bare server sending the service's own product headers (CORS, Link, validators, rate-limit fields, two of them changing per request): " +
        'what the header contract alone costs. The third compares against the same bare server after it did only what the contract asks of every counted request ' +
        "(the client's address, Accept, Accept-Encoding and If-None-Match read, one count in a Map, the three rate-limit fields set from it): the least any implementation pays, the ceiling for any handler. " +
        'The fourth sends the product request to an instance behind one trusted proxy (TRUST_PROXY_HOPS=1), as most deployments run, ' +
        "with X-Forwarded-For naming the client, so the connection's address is never read; the second and third 404 rows do the same as the second and third product rows with the 404's headers (a 404 depends on no request header). The MCP rows run on a second instance of the service, so that the first, like the bare server, answers GETs alone; " +
        "they compare against the product on that second instance, taken after them in every round, and that product row against the first instance's shows what answering MCP costs the GETs of the same process.",
      '',
    );
    out.push(
      '| Runtime | Request | Service req/s | p99 | Reference | Reference req/s | p99 | Ratio | Target | Ratio per CPU | Server CPU, service / reference |',
    );
    out.push('| --- | --- | --: | --: | --- | --: | --: | --: | --- | --: | --- |');
    const notes: string[] = [];
    for (const http of report.http) {
      const name = LABEL[http.runtime];
      if (http.error) notes.push(`${name}: ${http.error.split('\n')[0]}`);
      for (const check of http.checks) if (!check.ok) notes.push(`${name}, ${check.scenario}: check failed (${check.note})`);
      for (const scenario of report.scenarios) {
        const row = summarise(http, scenario);
        if (!row) continue;
        const target = scenario.target?.[http.runtime];
        const reference =
          scenario.reference === 'baseline'
            ? `${BARE[http.runtime]}${scenario.referenceLabel ? ` ${scenario.referenceLabel}` : ''}`
            : (scenario.referenceLabel ??
              `service ${report.scenarios.find((s) => s.id === scenario.reference)?.label ?? scenario.reference}`);
        const verdict = target === undefined ? '' : `≥ ${target.toFixed(2)}: ${row.ratio >= target ? 'met' : '**missed**'}`;
        out.push(
          `| ${name} | ${scenario.label} | ${int(row.serviceRps)} | ${ms(row.serviceP99)} | ${reference} | ${int(row.referenceRps)} | ${ms(row.referenceP99)} | ${fixed(row.ratio)} | ${verdict} | ${fixed(row.cpuRatio)} | ${pct(row.serviceCpu)} / ${pct(row.referenceCpu)} |`,
        );
        const errors = http.runs[scenario.id]!.service.reduce(
          (n, r) => n + r.socketErrors + (scenario.status === undefined ? r.non2xx : 0),
          0,
        );
        if (errors > 0) notes.push(`${name}, ${scenario.label}: ${errors} socket errors or unexpected non-2xx answers during the runs`);
      }
      if (http.headerBytes.service) {
        notes.push(
          `${name}: the service's product answer carries ${http.headerBytes.service} bytes of headers, the baseline's ${http.headerBytes.baseline} (same body bytes).`,
        );
      }
    }
    const lowRef = report.http.some((h) =>
      report.scenarios.some((s) => s.reference === 'baseline' && (summarise(h, s)?.referenceCpu ?? 1) < 0.85),
    );
    if (lowRef)
      notes.push(
        'A server below about 85% CPU was not saturated (the load generator, or other work on the machine, held it back): read the per-CPU ratio there.',
      );
    if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  }

  if (report.cold.length > 0) {
    out.push('', `### Cold start: spawn to first 200 (median of ${config.coldRuns})`, '');
    out.push(
      '| Runtime | Start-up bundle | Hello world, same runtime | Ratio | Target | CPU to first 200, bundle / hello world | CPU ratio | First MCP tools/call answer |',
    );
    out.push('| --- | --: | --: | --: | --- | --: | --: | --: |');
    for (const c of report.cold) {
      const name = c.entry ? `${c.entry} (${LABEL[c.runtime]}, imported and asked once)` : LABEL[c.runtime];
      if (c.error && c.service.length === 0) {
        out.push(`| ${name} | failed: ${c.error.split('\n')[0]} | | | | | | |`);
        continue;
      }
      const s = median(c.service);
      const h = median(c.hello);
      const ratio = s / h;
      const cpuRatio = median(c.serviceCpu.map((x, i) => x / c.helloCpu[i]!));
      const verdict = ratio <= COLD_START_TARGET ? 'met' : `**missed** by ${ms(s - COLD_START_TARGET * h)}`;
      const mcp = c.firstMcp.length ? ms(median(c.firstMcp)) : '';
      out.push(
        `| ${name} | ${ms(s)} | ${ms(h)} | ${fixed(ratio, 1)}x | ≤ ${COLD_START_TARGET}x: ${verdict} | ${ms(median(c.serviceCpu))} / ${ms(median(c.helloCpu))} | ${fixed(cpuRatio, 1)}x | ${mcp} |`,
      );
    }
    out.push(
      '',
      'Each runtime runs its start-up bundle from `npm run build` (dist/start/, one minified file and the chunks loaded on first use), ' +
        'the hello world the smallest server of the same runtime. A serverless entry is imported by a probe that asks it once as its platform would (bench/baseline/first-answer.mjs), ' +
        'against the same probe on a fetch hello world. CPU counts every thread of the server process until its first 200 (from /proc): ' +
        'other work on the machine moves it far less than the wall time. The first MCP answer is spawn to a tools/call result (the SDK loads then).',
    );
  }

  if (report.workers) {
    const w = report.workers;
    out.push(
      '',
      `### Cloudflare Workers: CPU per request in workerd (Miniflare), ${int(w.requests)} requests a round, median of ${w.rest.length} rounds`,
      '',
    );
    if (w.error) out.push(`Failed: ${w.error}`);
    else {
      out.push('| Request | CPU per request | Target |', '| --- | --: | --- |');
      out.push(`| GET /api/v1/product | ${ms(median(w.rest))} | |`);
      const mcp = median(w.mcp);
      out.push(
        `| MCP tools/call get_product_overview, answered by the SDK | ${ms(mcp)} | ≤ ${WORKERS_MCP_TARGET_MS} ms: ${mcp <= WORKERS_MCP_TARGET_MS ? 'met' : '**missed**'} |`,
      );
      out.push(`| The same tools/call repeated (replayed, src/mcp/replay.ts) | ${ms(median(w.mcpReplayed))} | |`);
      if (w.firstRest !== undefined) out.push(`| First GET of a fresh isolate (the module's start included) | ${ms(w.firstRest)} | |`);
      out.push(
        '',
        "The Worker bundled as `wrangler deploy` makes it (dry run), with its Durable Object counter; CPU is the workerd process's " +
          '(every thread, from /proc) over the round, divided by its requests: an upper bound of what Cloudflare counts, which leaves out ' +
          "workerd's own HTTP work. The free plan allows 10 ms of CPU a request.",
      );
    }
  }

  if (report.rss || report.rssError) {
    out.push(
      '',
      `### Memory: ${int(config.rssRequests)} requests from ${int(config.rssClients)} client addresses (Node, in process, memory store)`,
      '',
    );
    if (report.rssError) out.push(`Failed: ${report.rssError.split('\n')[0]}`);
    else {
      const rss = report.rss as { samples: RssSample[]; rps: number; seconds: number; peakRssMb: number; non200: number };
      out.push(
        "The handler called directly (`createHandler` with a synthetic `clientAddress`, no HTTP), in one one-hour rate-limit window so every client stays counted: the store's worst case. Measured after a forced GC.",
        '',
      );
      out.push('| Point | RSS | Heap used | Clients in the store |');
      out.push('| --- | --: | --: | --: |');
      for (const s of rss.samples)
        out.push(`| ${s.label} | ${fixed(s.rssMb, 1)} MB | ${fixed(s.heapUsedMb, 1)} MB | ${int(s.storeSize)} |`);
      out.push(
        '',
        `Peak RSS ${fixed(rss.peakRssMb, 1)} MB; ${int(rss.rps)} requests/s in process (${fixed(rss.seconds, 1)} s)${rss.non200 ? `; ${rss.non200} answers were not 200` : ''}.`,
      );
    }
  }

  if (report.dispatch || report.dispatchError) {
    out.push('', '### Dispatch: the route table by exact path against itty-router (Node, in process)', '');
    if (report.dispatchError) out.push(`Failed: ${report.dispatchError}`);
    else {
      const d = report.dispatch as { calls: number; registered: number; results: { path: string; mapNs: number; routerNs: number }[] };
      out.push(
        `Finding a path's target, ${int(d.calls)} calls, ${d.registered} paths registered in the route table's order: the handler's Map by exact path against itty-router's Router.fetch (URL and query parsed, patterns tried in order).`,
        '',
      );
      out.push('| Path | Map by exact path | itty-router Router.fetch | Saved per request |');
      out.push('| --- | --: | --: | --: |');
      for (const r of d.results)
        out.push(`| ${r.path} | ${fixed(r.mapNs, 0)} ns | ${fixed(r.routerNs, 0)} ns | ${fixed((r.routerNs - r.mapNs) / 1000, 2)} µs |`);
    }
  }

  if (report.stores) {
    out.push('', '### Rate-limit store: Redis against memory (Node, in process)', '');
    if (report.stores.skipped) out.push(`Skipped: ${report.stores.skipped}.`);
    else {
      const r = report.stores.result as {
        memory: number[];
        redis: number[];
        rounds: number;
        seconds: number;
        concurrency: number;
        clients: number;
        redisHealthAfter: { status: string; reason?: string };
        non200: number;
      };
      const mem = median(r.memory);
      const red = median(r.redis);
      const ratios = r.redis.map((x, i) => x / r.memory[i]!);
      out.push(
        `GET /api/v1/product through the handler, ${r.concurrency} calls in flight, ${int(r.clients)} client addresses, ${r.rounds} interleaved rounds of ${r.seconds} s; a local redis-server pinned to the other CPU.`,
        '',
      );
      out.push('| Store | req/s | Ratio |');
      out.push('| --- | --: | --: |');
      out.push(`| memory | ${int(mem)} | 1.00 |`);
      out.push(`| redis | ${int(red)} | ${fixed(median(ratios))} |`);
      out.push(
        '',
        `Health after the run: ${r.redisHealthAfter.status}${r.redisHealthAfter.reason ? ` (${r.redisHealthAfter.reason})` : ' (no request fell back to memory)'}${r.non200 ? `; ${r.non200} answers were not 200` : ''}.`,
      );
    }
  }
  if (report.seconds) out.push('', `The whole run took ${Math.round(report.seconds)} s.`);
  return out.join('\n');
}
