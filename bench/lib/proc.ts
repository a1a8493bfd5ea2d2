/** @module Child processes of the bench: spawned (optionally pinned to a CPU), tracked, and always stopped. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export const TASKSET = has('taskset');

/** The command line prefixed with `taskset -c CPU` when taskset is there and the CPU exists. */
export function pinned(cpu: number | undefined, command: string, args: string[]): [string, string[]] {
  return TASKSET && cpu !== undefined ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

const live = new Set<ChildProcess>();

function killAll() {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

export interface Running {
  child: ChildProcess;
  pid: number;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  cpu?: number;
  env?: Record<string, string>;
  /** The first capture group is the URL the process announces. */
  ready: RegExp;
  timeoutMs?: number;
}

/** Spawns a process and resolves once its output matches `ready`. */
export async function start(command: string, args: string[], { cpu, env = {}, ready, timeoutMs = 60_000 }: SpawnOptions): Promise<Running> {
  const [cmd, argv] = pinned(cpu, command, args);
  const child = spawn(cmd, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => (live.delete(child), resolve())));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args.join(' ')} did not start in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] ?? '');
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
  return {
    child,
    pid: child.pid!,
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a process to completion and returns its stdout (throws with its output on failure). */
export async function run(
  command: string,
  args: string[],
  { cpu, env = {} }: { cpu?: number; env?: Record<string, string> } = {},
): Promise<string> {
  const [cmd, argv] = pinned(cpu, command, args);
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => (live.delete(child), resolve(c))));
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stderr}${stdout}`);
  return stdout;
}

/** CPU seconds (user + system, all threads) a process has used so far; undefined off Linux. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5) (utime, stime), counted from the state field (3).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
