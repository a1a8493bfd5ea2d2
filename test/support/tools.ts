/**
 * A command-line tool the end-to-end tests drive but the project does not depend on (its engines or
 * its size would burden every `npm ci`): installed from npm on first use under node_modules/.cache,
 * at the version given, and kept for later runs.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './entries.ts';

const execFile = promisify(execFileCallback);
const TOOLS = join(ROOT, 'node_modules/.cache/product-discovery/tools');

const installing = new Map<string, Promise<string>>();

/** The directory whose node_modules holds `name@version` (its commands in node_modules/.bin). */
export function installedTool(name: string, version: string): Promise<string> {
  const spec = `${name}@${version}`;
  if (!installing.has(spec)) installing.set(spec, install(name, version));
  return installing.get(spec)!;
}

async function install(name: string, version: string): Promise<string> {
  const dir = join(TOOLS, `${name.replace('/', '+')}@${version}`);
  if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return dir;
  // Installed beside and renamed into place, so a run that stops half-way leaves nothing that looks installed.
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'package.json'), JSON.stringify({ private: true }));
  // A CLI run from its dist needs no install script (the Inspector's only builds its own clients in a source checkout).
  const args = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--loglevel=error', `${name}@${version}`];
  await execFile('npm', args, { cwd: partial });
  try {
    renameSync(partial, dir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another run installed it first
  }
  return dir;
}
