/**
 * A server process a test starts, stops and starts again on the same port: its output kept across
 * launches, each launch waiting until the server answers, and every child killed if the test run
 * dies half-way. The real parts (redis.ts, upstash.ts) are built on it.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { sleep } from './net.ts';

const running = new Set<ChildProcess>();
// A test run that dies half-way must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface ServerProcess {
  /** The running child, if any (a paused one counts as running). */
  readonly child: ChildProcess | undefined;
  /** Spawns it and resolves once `ready` says so; throws, with the output's end, if it exits first or takes over 10 s. */
  launch(): Promise<void>;
  /** Sends the signal (after SIGCONT, so a paused process receives it) and waits for the exit. */
  signal(name: NodeJS.Signals): Promise<void>;
  /** Output of every launch so far. */
  output(): string;
}

export interface ServerSpec {
  /** Names the server in the errors, read at each launch (the port may change between attempts). */
  what(): string;
  command: string;
  /** Read at each launch, like `what`. */
  args(): readonly string[];
  /** Spawn options; stdout and stderr are always piped into the output. */
  options?: SpawnOptions;
  /** Whether the server answers yet. */
  ready(): Promise<boolean>;
}

export function serverProcess({ what, command, args, options = {}, ready }: ServerSpec): ServerProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = '';
  return {
    get child() {
      return child;
    },
    async launch() {
      const proc = spawn(command, args(), { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      running.add(proc);
      proc.stdout!.on('data', (chunk) => (log += chunk));
      proc.stderr!.on('data', (chunk) => (log += chunk));
      exited = new Promise((resolve) =>
        proc.once('exit', () => {
          running.delete(proc);
          if (child === proc) child = undefined;
          resolve();
        }),
      );
      const deadline = Date.now() + 10_000;
      while (!(await ready())) {
        if (!child) throw new Error(`${what()} exited:\n${log.slice(-2000)}`);
        if (Date.now() > deadline) throw new Error(`${what()} did not answer:\n${log.slice(-2000)}`);
        await sleep(50);
      }
    },
    async signal(name) {
      if (!child) return;
      if (name !== 'SIGCONT') child.kill('SIGCONT');
      child.kill(name);
      await exited;
    },
    output: () => log,
  };
}
