/** @module How each runtime starts the service entry, a baseline file, and reports its version. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './proc.ts';

export const RUNTIMES = ['bun', 'deno', 'node'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

export const LABEL: Record<RuntimeName, string> = { bun: 'Bun', deno: 'Deno', node: 'Node' };

const BUN = join(ROOT, 'node_modules/.bin/bun');
const DENO = join(ROOT, 'node_modules/.bin/deno');

/** The command line that runs a file the way the project runs it: TypeScript directly on Bun and Deno; compiled JavaScript as is on Node, TypeScript through tsx. */
export function command(runtime: RuntimeName, file: string, nodeFlags: string[] = []): [string, string[]] {
  switch (runtime) {
    case 'bun':
      return [BUN, [file]];
    case 'deno':
      return [DENO, ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', file]];
    case 'node':
      return [process.execPath, file.endsWith('.ts') ? [...nodeFlags, '--import', 'tsx', file] : [...nodeFlags, file]];
  }
}

export const ENTRY: Record<RuntimeName, string> = {
  bun: 'src/entry/bun.ts',
  deno: 'src/entry/deno.ts',
  // What `npm run start:node` and the `product-discovery` bin run: the build in dist/.
  node: 'dist/entry/node.js',
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
