/**
 * `npm run start:node` started twice at once in one checkout (two workers of a process manager),
 * with a stale build and a third `npm run build` racing them: the build is made once at a time and
 * renamed into place, so both serve and dist/ is never missing meanwhile; with a fresh build
 * neither builds again.
 */
import { execFile as execFileCallback, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/e2e.ts';
import { sleep } from '../support/net.ts';
import { ROOT } from '../support/entries.ts';

const STATE = join(ROOT, 'node_modules/.cache/product-discovery-build');
const ENTRY = join(ROOT, 'dist/entry/node.js');

beforeAll(() => promisify(execFileCallback)(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT }), 120_000);

/**
 * Watches dist/entry/node.js every 5 ms until `stop()`: the longest time it was missing, in ms.
 * Between the two renames that swap a new build in it is gone for microseconds; a build that
 * empties dist/ first leaves it missing for the whole compile.
 */
function watchEntry() {
  let longest = 0;
  let missingSince: number | undefined;
  const timer = setInterval(() => {
    const now = performance.now();
    if (!existsSync(ENTRY)) missingSince ??= now;
    else if (missingSince !== undefined) {
      longest = Math.max(longest, now - missingSince);
      missingSince = undefined;
    }
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      return missingSince === undefined ? longest : Infinity;
    },
  };
}

/** Runs `npm run <script>` in a process group of its own; `url` resolves once it serves (or never). */
function npmRun(script: string) {
  const child = spawn('npm', ['run', '--silent', script], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = (async () => {
    for (let i = 0; i < 1200 && child.exitCode === null; i++) {
      const match = /Serving .* on (http:\/\/\S+)/.exec(output);
      if (match) return match[1]!;
      await sleep(50);
    }
    return undefined;
  })();
  // The whole group: npm, its shell and the server.
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {}
    return exited;
  };
  return { url, exited, stop, output: () => output };
}

describe('two `npm run start:node` at once', () => {
  it('both serve, though the build was stale and another build runs beside them', async () => {
    // Forget what every checkout's dist/ was built from: this one's build is stale.
    for (const name of readdirSync(STATE).filter((name) => name.startsWith('stamp-'))) rmSync(join(STATE, name), { force: true });
    const watch = watchEntry();
    const servers = [npmRun('start:node'), npmRun('start:node')];
    const build = npmRun('build');
    try {
      const urls = await Promise.all(servers.map((server) => server.url));
      expect(await build.exited, build.output()).toBe(0);
      expect(watch.stop(), 'ms without dist/entry/node.js').toBeLessThan(500);
      for (const [index, url] of urls.entries()) {
        expect(url, servers[index]!.output()).toBeDefined();
        const health = await send(`${url}/api/v1/health`);
        expect(health.status).toBe(200);
        expect(health.json().status).toBe('ok');
      }
      expect(urls[0]).not.toBe(urls[1]);
      for (const server of servers) expect(server.output()).not.toMatch(/EEXIST|ENOENT|Error/);
      // The stale build is made once: by the first to take the lock, or by the build beside them, which always builds.
      expect(build.output()).toMatch(/^Built dist\/ in [\d.]+ s\.$/m);
      expect(servers.filter((server) => /^Built dist\//m.test(server.output())).length).toBeLessThanOrEqual(1);
    } finally {
      watch.stop();
      await Promise.all([...servers, build].map((server) => server.stop()));
    }
  }, 120_000);

  it('with a fresh build, neither builds again', async () => {
    const servers = [npmRun('start:node'), npmRun('start:node')];
    try {
      for (const server of servers) {
        expect(await server.url, server.output()).toBeDefined();
        expect(server.output()).not.toMatch(/^Built dist\//m);
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }, 60_000);
});
