/**
 * @module The load generator: wrk when present (installed with apt-get when missing and possible),
 * autocannon otherwise. One call = one fixed-duration run against one URL, pinned to a CPU.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, has, ROOT, run } from './proc.ts';
import type { RequestSpec } from './http.ts';

export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not 2xx/3xx. */
  non2xx: number;
  socketErrors: number;
  /** Server CPU use during the run (1 = one core busy), when the server's pid was given. */
  serverCpu?: number;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  cpu?: number;
  /** The server's pid, to report how busy it was. */
  serverPid?: number;
}

export type Tool = { name: 'wrk' | 'autocannon'; version: string; note?: string };

export function ensureLoadTool(log: (line: string) => void): Tool {
  if (!has('wrk') && process.getuid?.() === 0 && has('apt-get') && !process.env.BENCH_NO_APT) {
    log('wrk is missing: apt-get install -y wrk');
    let result = spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
      result = spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], {
        stdio: 'ignore',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    }
  }
  if (has('wrk') && !process.env.BENCH_AUTOCANNON) {
    const version = /wrk (\S+)/.exec(spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout)?.[1] ?? '?';
    return { name: 'wrk', version };
  }
  const pkg = JSON.parse(
    spawnSync(process.execPath, ['-p', 'JSON.stringify(require("autocannon/package.json"))'], { cwd: ROOT, encoding: 'utf8' }).stdout,
  );
  return {
    name: 'autocannon',
    version: pkg.version,
    note: 'wrk unavailable: autocannon (Node) drives the load and may cap the fastest servers',
  };
}

const scripts = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
let scriptCount = 0;

function luaString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function wrkScript(spec: RequestSpec): string {
  const lines = [`wrk.method = ${luaString(spec.method ?? 'GET')}`];
  if (spec.body !== undefined) lines.push(`wrk.body = ${luaString(spec.body)}`);
  for (const [name, value] of Object.entries(spec.headers ?? {})) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  const path = join(scripts, `request-${++scriptCount}.lua`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : NaN;
}

export async function load(tool: Tool, url: string, spec: RequestSpec, options: LoadOptions): Promise<LoadResult> {
  const cpuBefore = options.serverPid ? cpuSeconds(options.serverPid) : undefined;
  const t0 = performance.now();
  const result = tool.name === 'wrk' ? await wrk(url, spec, options) : await autocannon(url, spec, options);
  const wall = (performance.now() - t0) / 1000;
  const cpuAfter = options.serverPid ? cpuSeconds(options.serverPid) : undefined;
  if (cpuBefore !== undefined && cpuAfter !== undefined) result.serverCpu = (cpuAfter - cpuBefore) / wall;
  return result;
}

async function wrk(url: string, spec: RequestSpec, { seconds, connections, cpu }: LoadOptions): Promise<LoadResult> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', wrkScript(spec), url];
  const out = await run('wrk', args, { cpu });
  const latency = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m ? toMs(m[1]!, m[2]!) : NaN;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

async function autocannon(url: string, spec: RequestSpec, { seconds, connections, cpu }: LoadOptions): Promise<LoadResult> {
  const args = [
    join(ROOT, 'node_modules/autocannon/autocannon.js'),
    '-j',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-m',
    spec.method ?? 'GET',
  ];
  for (const [name, value] of Object.entries(spec.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (spec.body !== undefined) args.push('-b', spec.body);
  args.push(url);
  const r = JSON.parse(await run(process.execPath, args, { cpu }));
  return {
    rps: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx ?? 0,
    socketErrors: (r.errors ?? 0) + (r.timeouts ?? 0),
  };
}
