/** @module How each runtime starts the service entry, a baseline file, and reports its version. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './proc.ts';

export const RUNTIMES = ['bun', 'deno', 'node'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

export const LABEL: Record<RuntimeName, string> = { bun: 'Bun', deno: 'Deno', node: 'Node' };

const BUN = join(ROOT, 'node_modules/.bin/bun');
const DENO = join(ROOT, 'node_modules/.bin/deno');

/** The command line that runs a file the way the project runs it: TypeScript directly on Bun and Deno, through tsx on Node; JavaScript as it is. */
export function command(runtime: RuntimeName, file: string, nodeFlags: string[] = [], args: string[] = []): [string, string[]] {
  switch (runtime) {
    case 'bun':
      return [BUN, [file, ...args]];
    case 'deno':
      return [DENO, ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', file, ...args]];
    case 'node':
      return [process.execPath, [...nodeFlags, ...(file.endsWith('.ts') ? ['--import', 'tsx'] : []), file, ...args]];
  }
}

/** The start-up bundles `npm run build` writes (scripts/bundle.mjs). */
export const START_DIR = 'dist/start';

/** What a deployment runs: the runtime's start-up bundle (the bin's `serve` and `npm run start:node` run Node's). */
export const ENTRY: Record<RuntimeName, string> = {
  bun: `${START_DIR}/bun.js`,
  deno: `${START_DIR}/deno.js`,
  node: `${START_DIR}/node.js`,
};

export const SERVICE_READY = /Serving .* on (http:\/\/\S+)/;
export const BASELINE_READY = /Baseline listening on (http:\/\/\S+)/;

export function version(runtime: RuntimeName): string {
  switch (runtime) {
    case 'bun':
      return spawnSync(BUN, ['--version'], { encoding: 'utf8' }).stdout.trim();
    case 'deno':
      return /deno (\S+)/.exec(spawnSync(DENO, ['--version'], { encoding: 'utf8' }).stdout)?.[1] ?? '?';
    case 'node':
      return process.version.replace(/^v/, '');
  }
}
