/** @module The benchmark's settings, from the environment (see bench/run.ts), and its log. */
import { cpus } from 'node:os';
import { RUNTIMES, type RuntimeName } from './runtimes.ts';

export const started = performance.now();
export const log = (line: string) =>
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
const num = (value: string | undefined, fallback: number) => (value && Number.isFinite(Number(value)) ? Number(value) : fallback);

const env = process.env;
export const skip = new Set(
  (env.BENCH_SKIP ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
export const runtimes = (env.BENCH_RUNTIMES ?? RUNTIMES.join(',')).split(',').map((s) => s.trim()) as RuntimeName[];
const twoCores = cpus().length >= 2;
export const config = {
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
export const onlyScenarios = env.BENCH_SCENARIOS ? new Set(env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : undefined;
export const fullRun = RUNTIMES.every((r) => runtimes.includes(r)) && skip.size === 0 && !onlyScenarios;

/** The largest RATE_LIMIT_QUOTA the configuration accepts: the benchmark is never refused. */
export const QUOTA = '1000000000';
