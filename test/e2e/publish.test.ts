/**
 * Publishing and the git install route, from a clean clone of the repository (what is committed):
 * `npm publish --dry-run` exits 0 with no warning, `deno publish --dry-run` (JSR) passes, and
 * `npm install git+file://...` builds dist/ through `prepare` and installs a package that runs.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { ROOT } from '../support/entries.ts';

const execFile = promisify(execFileCallback);
const work = mkdtempSync(join(tmpdir(), 'publish-'));
const clone = join(work, 'clone');

beforeAll(async () => {
  await execFile('git', ['clone', '--quiet', ROOT, clone]);
  // The clone's dependencies are the repository's: what `npm ci` would install there, ending with
  // its `prepare` script (the build of dist/), run here as npm ci runs it.
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  await execFile('npm', ['run', 'prepare'], { cwd: clone });
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('publishing from a clean clone', () => {
  it('`npm publish --dry-run` exits 0 with no warning, the tarball holding dist/, the bin, the licence and the changelog', async () => {
    // Only the registry login is set (a placeholder: a dry run sends nothing); no other user configuration.
    const npmrc = join(work, 'npmrc');
    writeFileSync(npmrc, '//registry.npmjs.org/:_authToken=placeholder-for-a-dry-run\n');
    const { stdout, stderr } = await execFile('npm', ['publish', '--dry-run'], {
      cwd: clone,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_userconfig: npmrc, npm_config_update_notifier: 'false' },
    });
    expect(stderr.split('\n').filter((line) => /^npm (warn|WARN|ERR)/.test(line))).toEqual([]);
    expect(stderr).toMatch(/npm notice [\d.]+k?B\s+dist\/verify\/index\.js/);
    expect(stderr).toMatch(/npm notice [\d.]+k?B\s+bin\/product-discovery\.js/);
    expect(stderr).toMatch(/npm notice [\d.]+k?B\s+LICENSE/);
    expect(stderr).toMatch(/npm notice [\d.]+k?B\s+CHANGELOG\.md/);
    expect(stdout).toContain(`+ ${pkg.name}@${pkg.version}`);
  }, 120_000);

  it('`deno publish --dry-run` (JSR) passes with the version from package.json', async () => {
    const { stdout, stderr } = await execFile(
      join(ROOT, 'node_modules/.bin/deno'),
      ['publish', '--dry-run', '--set-version', pkg.version, '--allow-slow-types'],
      { cwd: clone, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } },
    );
    expect(`${stdout}${stderr}`).toContain(`Simulating publish of @product-discovery/api@${pkg.version}`);
    expect(`${stdout}${stderr}`).toContain('Success Dry run complete');
    expect(`${stdout}${stderr}`).toMatch(/src\/verify\/index\.ts/);
  }, 120_000);
});

describe('installing from a git URL', () => {
  it('builds dist/ through `prepare`, and the installed package imports and runs its bin', async () => {
    const consumer = join(work, 'consumer');
    await execFile('mkdir', [consumer]);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await execFile('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `git+file://${clone}`], { cwd: consumer });
    const installed = join(consumer, 'node_modules', pkg.name);
    expect(existsSync(join(installed, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    const { stdout } = await execFile(
      process.execPath,
      ['--input-type=module', '-e', `import { createHandler } from '${pkg.name}'; console.log(typeof createHandler);`],
      { cwd: consumer },
    );
    expect(stdout.trim()).toBe('function');
    expect((await execFile(join(consumer, 'node_modules/.bin/product-discovery'), ['--version'])).stdout.trim()).toBe(pkg.version);
  }, 240_000);
});
