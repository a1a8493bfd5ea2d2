/**
 * The Deno Deploy entry under `deno serve`, started with the command docs/deploy/deno-deploy.md gives
 * (with Deno KV enabled), on a free port, in a shell of its own process group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './entries.ts';

/** The runnable `sh` block of the chapter: the command a reader types to serve the entry locally. */
const documented = /```sh\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/deploy/deno-deploy.md'), 'utf8'))![1]!.trim();

export interface Served {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Runs the documented command in a shell of its own process group, on a free port (DENO_SERVE_ADDRESS). */
export function spawnDocumented(env: Record<string, string>) {
  const child = spawn('sh', ['-c', documented], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => output };
}

export async function serve(env: Record<string, string> = {}): Promise<Served> {
  const { child, exited, output } = spawnDocumented(env);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`deno serve did not start:\n${output()}`)), 30_000);
    child.stdout!.on('data', () => {
      const match = /Serving .* on (http:\/\/\S+)/.exec(output());
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`deno serve exited ${code}:\n${output()}`)));
    void exited.finally(() => clearTimeout(timer));
  }).finally(() => undefined);
  return {
    url,
    child,
    output,
    async stop() {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}
