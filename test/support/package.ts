/**
 * The package as users get it: `npm pack` (which builds dist/ first), made once per content of what
 * goes into it and kept under node_modules/.cache, then installed into fresh projects with npm or pnpm.
 * The tests that build (the pack, `npm run start:node`) take one lock besides the build's own, so a
 * pack is made once per content while the others wait.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sleep } from './net.ts';
import { ROOT } from './entries.ts';

export const execFile = promisify(execFileCallback);
const CACHE = join(ROOT, 'node_modules/.cache/product-discovery');
const LOCK = join(CACHE, 'build.lock');

/** Runs `work` while no other test file builds dist/ (a lock older than 5 minutes was left by a killed run). */
export async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000)
        rmSync(LOCK, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Everything the build and the tarball read, so a cached tarball is reused only for the same content. */
function contentKey(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else hash.update(path.slice(ROOT.length)).update(readFileSync(path));
  };
  for (const path of [
    'src',
    'scripts',
    'package.json',
    'package-lock.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'tsconfig.json',
    'tsconfig.build.json',
  ]) {
    if (existsSync(join(ROOT, path))) add(join(ROOT, path));
  }
  return hash.digest('hex').slice(0, 16);
}

export interface Packed {
  tarball: string;
  /** The paths the tarball holds, as `npm pack --json` lists them. */
  files: string[];
}

export async function packOnce(): Promise<Packed> {
  return withBuildLock(async () => {
    const dir = join(CACHE, `pack-${contentKey()}`);
    const record = join(dir, 'packed.json');
    if (existsSync(record)) return JSON.parse(readFileSync(record, 'utf8')) as Packed;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const { stdout } = await execFile('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT });
    const [{ filename, files }] = JSON.parse(stdout.slice(stdout.indexOf('[')));
    const packed: Packed = { tarball: join(dir, filename), files: files.map((file: { path: string }) => file.path) };
    writeFileSync(record, JSON.stringify(packed));
    return packed;
  });
}

/** A fresh project that depends on the tarball and `dependencies`, installed by npm (production) or pnpm. */
export async function installConsumer(dir: string, tarball: string, manager: 'npm' | 'pnpm', dependencies: string[] = []) {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const env = { ...process.env, npm_config_update_notifier: 'false' };
  if (manager === 'npm') {
    await execFile('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...dependencies], {
      cwd: dir,
      env,
    });
  } else {
    await execFile('npx', ['--yes', 'pnpm@10', 'add', '--config.confirmModulesPurge=false', tarball, ...dependencies], { cwd: dir, env });
  }
}
