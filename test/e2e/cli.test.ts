/**
 * The `product-discovery` command as a user runs it, through the committed bin over the build in
 * dist/: it keeps its execute bit and works through npx after a rebuild; without a build it says
 * what to run; `verify` of an address where nothing listens, or of a host that does not resolve,
 * says why in one line and exits 1; `check` loads the facts modules and nothing of the service.
 */
import { execFile as execFileCallback, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/entries.ts';
import { freePort } from '../support/net.ts';
import pkg from '../../package.json' with { type: 'json' };

const execFile = promisify(execFileCallback);
const BIN = join(ROOT, 'bin/product-discovery.js');
const dir = mkdtempSync(join(tmpdir(), 'e2e-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const build = (...flags: string[]) => execFile(process.execPath, ['scripts/build.mjs', ...flags], { cwd: ROOT });

/** Runs the bin (or another command) in the repository; its exit code and output, never a throw. */
async function run(command: string, args: string[], env: Record<string, string> = {}) {
  return execFile(command, args, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string }),
  );
}

beforeAll(() => build('--if-stale'), 120_000);

describe('the committed bin', () => {
  it('is committed with its execute bit, and package.json points to it', () => {
    const staged = spawnSync('git', ['ls-files', '--stage', 'bin/product-discovery.js'], { cwd: ROOT, encoding: 'utf8' }).stdout;
    expect(staged).toMatch(/^100755 /);
    expect(statSync(BIN).mode & 0o111).toBe(0o111);
    expect(pkg.bin).toEqual({ 'product-discovery': 'bin/product-discovery.js' });
    expect(pkg.files).toContain('bin');
  });

  it('runs through npx before and after a rebuild (no "Permission denied")', async () => {
    for (const when of ['built', 'rebuilt']) {
      if (when === 'rebuilt') await build();
      const result = await run('npx', ['--no-install', 'product-discovery', '--version']);
      expect(result, when).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  }, 120_000);

  it('says what to run when dist/ is not built, exit 1', async () => {
    mkdirSync(join(dir, 'unbuilt/bin'), { recursive: true });
    copyFileSync(BIN, join(dir, 'unbuilt/bin/product-discovery.js'));
    writeFileSync(join(dir, 'unbuilt/package.json'), '{"type":"module"}');
    const result = await run(process.execPath, [join(dir, 'unbuilt/bin/product-discovery.js'), '--version']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'product-discovery: dist/start/cli.js is missing (this checkout is not built): run `npm ci` or `npm run build` first.\n',
    );
  });

  it.each(['serve', 'check', 'verify'])('`%s --help` prints its usage and exits 0', async (name) => {
    const result = await run(BIN, [name, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: product-discovery ${name}\\b`));
    expect(result.stderr).toBe('');
  });
});

describe('verify of a deployment it cannot reach: one line on stderr, exit 1', () => {
  it('connection refused', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await run(BIN, ['verify', url]);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `product-discovery verify: cannot reach ${url}: connection refused by 127.0.0.1 port ${new URL(url).port}: nothing listens there; check the port and that the service runs\n`,
    });
  });

  it('no such host', async () => {
    // RFC 6761: .invalid never resolves. Without a resolver at all the lookup fails as EAI_AGAIN.
    const result = await run(BIN, ['verify', 'http://does-not-exist.invalid', '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^product-discovery verify: cannot reach http:\/\/does-not-exist\.invalid: (no such host "does-not-exist\.invalid" \(DNS\)|the name .* could not be resolved now).*\n$/,
    );
  });
});

describe('check FILE', () => {
  it('names an impossible date in one line through the installed bin, with no code or stack trace, and exits 1', async () => {
    const facts = JSON.parse(readFileSync(join(ROOT, 'src/facts/sample-facts.json'), 'utf8'));
    facts.product.reviewedOn = '2026-13-01';
    const file = join(dir, 'month-13.json');
    writeFileSync(file, JSON.stringify(facts));
    expect(await run(process.execPath, [BIN, 'check', file])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Facts file ${file} was refused:\n` +
        '  product.reviewedOn: "2026-13-01" is not a date that exists (there is no month 13); give a real calendar date (YYYY-MM-DD)\n',
    });
  });

  it('loads the facts modules and nothing of the service (no configuration, handler, server or verify)', async () => {
    const trace = join(dir, 'imports.txt');
    writeFileSync(trace, '');
    const tracer = pathToFileURL(join(ROOT, 'test/support/trace-imports.mjs')).href;
    const result = await run(process.execPath, ['--import', tracer, BIN, 'check', 'src/facts/sample-facts.json'], { TRACE_IMPORTS: trace });
    expect(result.code, result.stderr).toBe(0);
    const loaded = [...new Set(readFileSync(trace, 'utf8').split('\n').filter(Boolean))];
    const ours = loaded.filter((url) => url.includes('/dist/')).map((url) => url.slice(url.lastIndexOf('/dist/') + 6));
    // The bin runs the start-up bundle: the `check` command (src/cli/check.ts) is a chunk of its own, loaded on `check`.
    expect(ours).toContain('start/cli.js');
    expect(
      ours.some((path) => /^start\/check-\w+\.js$/.test(path)),
      ours.join(', '),
    ).toBe(true);
    expect(ours.filter((path) => /^start\/(start|server|redis|verify|otel|sdk|node|bun|deno)[-.]/.test(path))).toEqual([]);
    expect(loaded.filter((url) => /\/node_modules\/(@hono|@modelcontextprotocol|@redis|ajv)\//.test(url))).toEqual([]);
  });
});
