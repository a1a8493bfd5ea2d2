/**
 * Host apps as a developer writes them from the docs (docs/embedding.md): each example in examples/ (Hono, Express,
 * node:http, Bun, Deno) run in a fresh project that installed the packed tarball with npm and with
 * pnpm (whose strict node_modules refuses an import of a package the app does not depend on). Each
 * hands the handler exactly the paths of the route table and answers its own, `/api/v2/things` too.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/net.ts';
import pkg from '../../package.json' with { type: 'json' };
import { pathsOf } from '../../src/route.ts';
import { ROUTES } from '../../src/routes.ts';
import { ROOT } from '../support/entries.ts';
import { installConsumer, packOnce } from '../support/package.ts';

interface HostApp {
  name: string;
  file: string;
  command: (file: string) => string[];
  /** Every module the example may import: the package, the host's own framework, node: built-ins. */
  imports: string[];
}

const node = (file: string) => [process.execPath, '--import', 'tsx', file];
const APPS: HostApp[] = [
  { name: 'node:http', file: 'node-app.ts', command: node, imports: ['node:http', 'product-discovery-api'] },
  { name: 'Express', file: 'express-app.ts', command: node, imports: ['express', 'product-discovery-api'] },
  {
    name: 'Hono',
    file: 'hono-app.ts',
    command: node,
    imports: ['@hono/node-server', '@hono/node-server/conninfo', 'hono', 'product-discovery-api'],
  },
  { name: 'Bun', file: 'bun-app.ts', command: (file) => [join(ROOT, 'node_modules/.bin/bun'), file], imports: ['product-discovery-api'] },
  {
    name: 'Deno',
    file: 'deno-app.ts',
    command: (file) => [join(ROOT, 'node_modules/.bin/deno'), 'run', '--allow-net', '--allow-env', '--allow-read', file],
    imports: ['product-discovery-api'],
  },
];

// The host apps' own dependencies, at the versions this repository tests with.
const HOST_DEPENDENCIES = [
  `express@${pkg.devDependencies.express}`,
  `hono@${pkg.dependencies.hono}`,
  `@hono/node-server@${pkg.dependencies['@hono/node-server']}`,
  `tsx@${pkg.devDependencies.tsx}`,
];

/** Every path the handler serves, and the method to ask it with; the root is each host app's own home page. */
// The examples set no SECURITY_CONTACT: security.txt is still the handler's path, answered with its 404 problem.
const SERVED = ROUTES.flatMap((route) =>
  pathsOf(route).map(({ path }) => ({ path, method: route.methods[0]!, status: route.securityContact ? 404 : 200 })),
).filter(({ path }) => path !== '/');

/** X-RateLimit-Remaining of GET /api/v1 sent from `localAddress`. */
function remainingFrom(url: string, localAddress: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    get(`${url}/api/v1`, { localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['x-ratelimit-remaining'] as string | undefined));
    }).on('error', reject);
  });
}

async function startApp(dir: string, app: HostApp) {
  const port = await freePort();
  const [command, ...args] = app.command(app.file);
  const child = spawn(command!, args, {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let i = 0; i < 400 && !output.includes('Serving') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  if (!output.includes('Serving')) {
    child.kill('SIGKILL');
    throw new Error(`${app.name} did not start:\n${output}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

it('the examples import nothing but the package, their framework and node: built-ins', () => {
  for (const app of APPS) {
    const source = readFileSync(join(ROOT, 'examples', app.file), 'utf8');
    const imported = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(imported.length, app.file).toBeGreaterThan(0);
    for (const name of imported) expect(app.imports, `${app.file} imports ${name}`).toContain(name);
  }
});

describe.each(['npm', 'pnpm'] as const)('host apps installed from the tarball with %s', (manager) => {
  const dir = mkdtempSync(join(tmpdir(), `host-apps-${manager}-`));
  beforeAll(async () => {
    const { tarball } = await packOnce();
    await installConsumer(dir, tarball, manager, HOST_DEPENDENCIES);
    for (const app of APPS) copyFileSync(join(ROOT, 'examples', app.file), join(dir, app.file));
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each(APPS)('$name', (app) => {
    let running: Awaited<ReturnType<typeof startApp>>;
    beforeAll(async () => {
      running = await startApp(dir, app);
    }, 60_000);
    afterAll(() => running?.stop());

    it('hands the handler every path of the route table, whatever the query string', async () => {
      for (const { path, method, status } of SERVED) {
        const init =
          method === 'POST'
            ? { method, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }
            : {};
        const response = await fetch(`${running.url}${path}?from=host`, init);
        expect(response.status, `${method} ${path}`).toBe(status);
        expect(response.headers.get('ratelimit-policy'), `${path} answered by the handler`).toBe('"default";q=120;w=60');
        await response.arrayBuffer();
      }
    });

    it('gives the handler its own base URL', async () => {
      const index = await (await fetch(`${running.url}/api/v1`)).json();
      expect(index.links.openapi).toBe(`${running.url}/openapi.json`);
    });

    it('answers its own paths itself, /api/v2/things included', async () => {
      const home = await fetch(`${running.url}/`);
      expect(await home.text()).toContain('served by the host app');
      const things = await fetch(`${running.url}/api/v2/things`);
      expect(things.status).toBe(200);
      expect(await things.json()).toEqual({ things: [] });
      expect(things.headers.get('ratelimit-policy')).toBeNull();
      for (const path of ['/api/v2', '/api/v1x', '/api/v1/product/x', '/mcpx', '/problems/nope', '/openapi.jsonx']) {
        const response = await fetch(`${running.url}${path}`);
        expect(response.status, path).toBe(404);
        expect(response.headers.get('content-type') ?? '', `${path} answered by the host app, not the handler`).not.toContain(
          'problem+json',
        );
        await response.arrayBuffer();
      }
    });

    it('passes the client address, so the quota counts per client', async () => {
      // The earlier requests came from 127.0.0.1; another loopback address is a new client with a full quota.
      expect(Number(await remainingFrom(running.url, '127.0.0.1'))).toBeLessThan(119);
      expect(await remainingFrom(running.url, '127.0.0.2')).toBe('119');
    });
  });
});

describe('the docs chapter on embedding', () => {
  const section = readFileSync(join(ROOT, 'docs/embedding.md'), 'utf8');

  it('lists every path of the route table', () => {
    expect(section.length).toBeGreaterThan(0);
    for (const route of ROUTES) expect(section, route.path).toContain(`\`${route.path.replace(/\{(\w+)\}/g, '<$1>')}\``);
  });

  it('shows the line that hands a request over exactly as each example has it', () => {
    for (const app of APPS) {
      const source = readFileSync(join(ROOT, 'examples', app.file), 'utf8');
      const line = source.split('\n').find((text) => text.includes('isServedPath('))!;
      expect(section, app.file).toContain(line.trim());
    }
  });

  it('shows the Express example whole, as the README does', () => {
    const source = readFileSync(join(ROOT, 'examples/express-app.ts'), 'utf8');
    expect(section).toContain(source.slice(source.indexOf('import express')));
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(source.slice(source.indexOf('import express')));
  });
});
