/**
 * Starts the real runtime entries (Bun, Deno, Node) as child processes on free ports, and the
 * Worker in workerd through `npm run start:workers` (Miniflare), which listens the same way.
 * Bun, Deno and Node run the start-up bundles (scripts/bundle.mjs), as a deployment does: the
 * global setup writes them to START_BUNDLES before any test file runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Inside the repository, so the optional peers (the Redis client) resolve from its node_modules. */
export const START_BUNDLES = join(ROOT, 'node_modules/.cache/product-discovery/start');
export const RUNTIMES = ['bun', 'deno', 'node'] as const;
/** Every entry the HTTP and MCP contract is checked against: the runtimes and Cloudflare Workers. */
export const ENTRIES = [...RUNTIMES, 'workers'] as const;
export type RuntimeName = (typeof ENTRIES)[number];

const COMMANDS: Record<RuntimeName, (script: string) => string[]> = {
  bun: (script) => ['node_modules/.bin/bun', script],
  deno: (script) => ['node_modules/.bin/deno', 'run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', script],
  node: (script) => [process.execPath, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script],
  // The script is the Worker's module (src/entry/workers.ts), bundled and served by the local runner.
  workers: () => [process.execPath, '--import', 'tsx', 'scripts/serve-workers.ts'],
};

export interface RunningEntry {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends the signal to the server process itself and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The file an entry runs by default: the runtime's start-up bundle; the Worker's own module. */
export const entryScript = (runtime: RuntimeName) =>
  runtime === 'workers' ? 'src/entry/workers.ts' : relative(ROOT, join(START_BUNDLES, `${runtime}.js`));

export function spawnEntry(runtime: RuntimeName, env: Record<string, string> = {}, script = entryScript(runtime)) {
  const [command, ...args] = COMMANDS[runtime](script);
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Starts an entry and waits for the line announcing its URL. */
export async function startEntry(
  runtime: RuntimeName,
  env: Record<string, string> = {},
  { script, timeoutMs = 30_000 }: { script?: string; timeoutMs?: number } = {},
): Promise<RunningEntry> {
  const { child, exited, output } = spawnEntry(runtime, env, script);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${runtime} did not start within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const check = () => {
      const match = /Serving .* on (http:\/\/[^\s)]+)/.exec(output());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${runtime} exited with ${code} before serving:\n${output()}`));
    });
  });
  return {
    url,
    child,
    output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs an entry that is expected to refuse to start; resolves with its exit code and output. */
export async function failedStart(runtime: RuntimeName, env: Record<string, string>, timeoutMs = 30_000) {
  const { child, exited, output } = spawnEntry(runtime, env);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  return { code, output: output() };
}
