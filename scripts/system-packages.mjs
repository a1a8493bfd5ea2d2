#!/usr/bin/env node
/**
 * The Debian packages the test suite runs beside the project: real Redis processes (redis-server,
 * and redis-cli to make a Cluster), Chromium for the docs page, and podman with buildah and runc to
 * build and run the Containerfile (crun, podman's default here, fails on hybrid cgroups). Installed with apt-get when they
 * are missing and this is root on a Debian machine; otherwise a message names them. Run by `.ci/run`
 * and by the end-to-end tests' global setup (test/e2e/), so `npm ci && npm test` works on a fresh machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** Each package with how to tell it is there. */
const PACKAGES = [
  { name: 'redis-server', present: () => has('redis-server') },
  { name: 'redis-tools', present: () => has('redis-cli') },
  { name: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  { name: 'podman', present: () => has('podman') },
  { name: 'buildah', present: () => has('buildah') },
  { name: 'runc', present: () => has('runc') || existsSync('/usr/sbin/runc') },
];

export function ensureSystemPackages() {
  const missing = PACKAGES.filter((pkg) => !pkg.present()).map((pkg) => pkg.name);
  if (missing.length === 0) return;
  const command = `apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    throw new Error(`The tests need the Debian packages ${missing.join(', ')}: install them (${command}) and run the tests again.`);
  }
  console.error(`Installing ${missing.join(', ')} for the tests (${command})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    ensureSystemPackages();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
