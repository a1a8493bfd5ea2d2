/**
 * @module `npm run bench`: throughput of the service against a bare baseline on Bun, Deno and Node,
 * cold start (each runtime's start-up bundle and each serverless entry's), CPU per request in
 * workerd, memory under many clients, and the Redis store against the memory store.
 *
 * Not a test: nothing here asserts; it prints figures and ratios, writes them to docs/performance.md (between
 * the bench markers) and the raw numbers to bench/results/. Ratios from one interleaved run are the
 * figures to read: other work on the machine moves the absolute numbers.
 *
 * Environment knobs (defaults in brackets): BENCH_RUNTIMES [bun,deno,node], BENCH_ROUNDS [4],
 * BENCH_SECONDS [2], BENCH_CONNECTIONS [32], BENCH_COLD_RUNS [5], BENCH_RSS_REQUESTS [1000000],
 * BENCH_SKIP (any of http,cold,workers,rss,dispatch,redis), BENCH_SCENARIOS (ids of the HTTP rows to run, e.g.
 * product,mcp2025; a row measured against another brings that one along), BENCH_AUTOCANNON=1
 * (force autocannon), BENCH_NO_APT=1.
 * docs/performance.md is rewritten only by a full run (all runtimes, nothing skipped, every row).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { coldStart, serverlessColdStart, serverlessEntries, serverlessStore } from './lib/coldstart.ts';
import { config, fullRun, log, runtimes, skip, started } from './lib/config.ts';
import { inproc, redisVsMemory } from './lib/inproc.ts';
import { ensureLoadTool } from './lib/load.ts';
import { ROOT, run, TASKSET } from './lib/proc.ts';
import { updateReadme } from './lib/readme.ts';
import { renderReport, type Report } from './lib/report.ts';
import { LABEL, RUNTIMES, version, type RuntimeName } from './lib/runtimes.ts';
import { selectedScenarios } from './lib/scenarios.ts';
import { httpRuntime } from './lib/throughput.ts';
import { workersCpu } from './lib/workers.ts';

async function main() {
  // Node serves the build in dist/, as `npm run start:node` does.
  await run('npm', ['run', 'build'], {});
  const tool = ensureLoadTool(log);
  const cpuModel =
    /model name\s*:\s*(.*)/.exec(await import('node:fs').then((fs) => fs.readFileSync('/proc/cpuinfo', 'utf8')).catch(() => ''))?.[1] ??
    cpus()[0]?.model ??
    '?';
  const report: Report = {
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpuModel, taskset: TASKSET },
    versions: Object.fromEntries(RUNTIMES.map((r) => [r, version(r)])) as Record<RuntimeName, string>,
    tool,
    config,
    scenarios: selectedScenarios().map(({ id, label, reference, referenceLabel, target, status }) => ({
      id,
      label,
      reference,
      referenceLabel,
      target,
      status,
    })),
    http: [],
    cold: [],
  };
  log(
    `load generator: ${tool.name} ${tool.version}; ${config.rounds} rounds of ${config.seconds} s; ${config.connections} connections; taskset ${TASKSET ? 'yes' : 'no'}`,
  );

  if (!skip.has('http')) for (const runtime of runtimes) report.http.push(await httpRuntime(runtime, tool));
  if (!skip.has('cold')) {
    for (const runtime of runtimes) {
      log(`${LABEL[runtime]}: cold start, ${config.coldRuns} runs`);
      report.cold.push(await coldStart(runtime));
    }
    const store = await serverlessStore();
    try {
      for (const entry of serverlessEntries()) {
        log(`${entry}: cold start of its bundle with Redis over HTTP, ${config.coldRuns} runs`);
        const cold = await serverlessColdStart(entry, store.env);
        // A helper module beside the entries (nothing to ask) gets no row.
        if (!cold.error?.includes('nothing to ask')) report.cold.push(cold);
      }
    } finally {
      await store.dispose();
    }
  }
  if (!skip.has('workers')) {
    log('Workers: CPU per request in workerd (Miniflare)');
    report.workers = await workersCpu();
  }
  if (!skip.has('rss')) {
    log(
      `Node in-process: ${config.rssRequests.toLocaleString('en-US')} requests over ${config.rssClients.toLocaleString('en-US')} client addresses`,
    );
    try {
      report.rss = await inproc(['rss', String(config.rssRequests), String(config.rssClients)], ['--expose-gc']);
    } catch (error) {
      report.rssError = (error as Error).message.slice(0, 500);
    }
  }
  if (!skip.has('dispatch')) {
    log('Node in-process: dispatch by the route table against itty-router');
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
    log('docs/performance.md: figures updated');
  } else {
    log('partial run (BENCH_RUNTIMES or BENCH_SKIP): docs/performance.md left as it is');
  }
  log(`done in ${report.seconds.toFixed(0)} s`);
}

await main();
process.exit(0);
