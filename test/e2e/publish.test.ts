/**
 * Publishing and the git install route, from a clean clone of the repository (what is committed):
 * `npm publish --dry-run` exits 0 with no warning, `deno publish --dry-run` (JSR) passes with no slow
 * types, the publishing workflow trusts OIDC rather than a token, and
 * `npm install git+file://...` builds dist/ through `prepare` and installs a package that runs.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import deno from '../../deno.json' with { type: 'json' };
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

  it('`deno publish --dry-run` (JSR) passes as committed: the version of package.json, no slow types, the sources', async () => {
    expect(deno.version).toBe(pkg.version);
    const { stdout, stderr } = await execFile(join(ROOT, 'node_modules/.bin/deno'), ['publish', '--dry-run'], {
      cwd: clone,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    });
    const output = `${stdout}${stderr}`;
    expect(output).toContain(`Simulating publish of @product-discovery/api@${pkg.version}`);
    expect(output).toContain('Success Dry run complete');
    expect(output).not.toMatch(/missing-explicit|slow types? (error|found)|^error/im);
    expect(output).not.toContain('--allow-slow-types');
    expect(output).toMatch(/src\/verify\/index\.ts/);
    expect(output).toMatch(/src\/ratelimit\/stores\/redis-rest\.ts/);
    // The Worker's entry imports `cloudflare:workers`, which no other runtime has: kept out.
    expect(output).not.toMatch(/src\/entry\/workers\.ts/);
  }, 120_000);

  it('the publishing workflow publishes from a release through OIDC, with provenance and no token', () => {
    const text = readFileSync(join(ROOT, '.github/workflows/publish.yml'), 'utf8');
    const workflow = parse(text) as {
      on: unknown;
      jobs: Record<string, { permissions: Record<string, string>; steps: { run?: string }[] }>;
    };
    expect(workflow.on).toEqual({ release: { types: ['published'] } });
    const runs = (job: string) => workflow.jobs[job]!.steps.map((step) => step.run ?? '').join('\n');
    expect(workflow.jobs.npm!.permissions['id-token']).toBe('write');
    expect(runs('npm')).toMatch(/^npm publish --provenance\b/m);
    expect(runs('npm')).toContain('npm ci');
    expect(workflow.jobs.jsr!.permissions['id-token']).toBe('write');
    expect(runs('jsr')).toMatch(/^node_modules\/\.bin\/deno publish$/m);
    expect(text, 'no long-lived registry token').not.toMatch(/secrets\.|NPM_TOKEN|NODE_AUTH_TOKEN/);
  });
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
