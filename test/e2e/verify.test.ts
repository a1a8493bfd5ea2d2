/**
 * `product-discovery verify URL` as an operator runs it (the real command, a real process): every
 * check passes against each runtime entry; behind deliberately broken fronts (test/support/fronts.ts)
 * each break is caught by the check named for it and by nothing else, with exit code 1; the front
 * counts the requests, which stay within the budget and only read.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, ROOT, startEntry, type RunningEntry } from '../support/entries.ts';
import { startFront, type Break, type Front } from '../support/fronts.ts';
import { sleep } from '../support/net.ts';

const execFile = promisify(execFileCallback);

interface JsonReport {
  ok: boolean;
  requests: number;
  checks: { id: string; ok: boolean; expected: string; got: string; hint: string }[];
}

/** Runs the command; resolves with its exit code and output (parsed with --json). */
async function verify(url: string, { json = true, env = {} }: { json?: boolean; env?: Record<string, string> } = {}) {
  const args = ['--import', 'tsx', 'src/cli.ts', 'verify', url, ...(json ? ['--json'] : [])];
  const result = await execFile(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error) => ({ code: error.code as number, stdout: error.stdout as string }),
  );
  return { ...result, report: json ? (JSON.parse(result.stdout) as JsonReport) : undefined };
}

const failed = (report: JsonReport) => report.checks.filter((check) => !check.ok).map((check) => check.id);

/** What every run against the current service checks, at least. */
const EXPECTED_IDS = [
  'openapi',
  'base',
  'get:/api/v1',
  'get:/api/v1/health',
  'get:/api/v1/product',
  'get:/openapi.json',
  'get:/problems/api_route_not_found',
  'get:/.well-known/api-catalog',
  'get:/llms.txt',
  'get:/mcp/server-card',
  'head:/api/v1',
  'head:/api/v1/product',
  'not-found',
  'method-not-allowed',
  'options',
  'headers.nosniff',
  'headers.link',
  'headers.cors',
  'headers.rate-limit',
  'headers.etag',
  'headers.cache-control',
  'deprecation',
  'discovery.api-catalog',
  'discovery.llms-txt',
  'discovery.server-card',
  'mcp.modern',
  'mcp.legacy',
  'mcp.tools',
  'mcp.resources',
  'version',
  // The front door.
  'get:/',
  'get:/robots.txt',
  'get:/llms-full.txt',
  'get:/.well-known/mcp/server-card.json',
  'get:/docs',
  'discovery.root',
  'discovery.robots',
  'discovery.llms-full',
  'discovery.docs',
  // The agent-readiness documents.
  'get:/sitemap.xml',
  'get:/skill.md',
  'get:/.well-known/agent-skills/index.json',
  'get:/.well-known/agent-skills/product-discovery/SKILL.md',
  'discovery.sitemap',
  'discovery.skill',
];

describe.each(ENTRIES)('product-discovery verify against %s', (runtime) => {
  let entry: RunningEntry;
  beforeAll(async () => {
    entry = await startEntry(runtime, { RATE_LIMIT_QUOTA: '1000' });
  }, 60_000);
  afterAll(() => entry?.stop());

  it('passes every check, exit 0, within 60 requests', async () => {
    const { code, report } = await verify(entry.url);
    expect(
      failed(report!),
      JSON.stringify(
        report!.checks.filter((c) => !c.ok),
        null,
        2,
      ),
    ).toEqual([]);
    expect(code).toBe(0);
    expect(report!.ok).toBe(true);
    expect(report!.checks.map((check) => check.id)).toEqual(expect.arrayContaining(EXPECTED_IDS));
    // If-None-Match on as many documents as the budget leaves, at least one.
    expect(report!.checks.filter((check) => check.id.startsWith('etag:')).length).toBeGreaterThan(0);
    expect(report!.requests).toBeLessThanOrEqual(60);
  });
});

describe('product-discovery verify with a deprecation announced', () => {
  let entry: RunningEntry;
  beforeAll(async () => {
    entry = await startEntry('bun', { DEPRECATION_DATE: '2026-01-01', SUNSET_DATE: '2026-06-01', SUCCESSOR_PATH: '/api/v2' });
  });
  afterAll(() => entry?.stop());

  it('checks Deprecation, Sunset and the successor Link on every /api/v1 answer', async () => {
    const { code, report } = await verify(entry.url);
    expect(failed(report!)).toEqual([]);
    expect(code).toBe(0);
    const deprecation = report!.checks.find((check) => check.id === 'deprecation')!;
    expect(deprecation.expected).toBe(
      `Deprecation: @1767225600, Sunset: Mon, 01 Jun 2026 00:00:00 GMT and Link rel="successor-version" to ${entry.url}/api/v2 on every /api/v1 answer`,
    );
  });

  it('fails the deprecation check alone when a front drops Sunset', async () => {
    // The same break as the fronts below, aimed at the deprecation fields.
    const front = await startFront('none', entry.url);
    try {
      const sunsetless = await startEntry('bun', { DEPRECATION_DATE: '2026-01-01', SUNSET_DATE: '2026-06-01', PUBLIC_BASE_URL: front.url });
      front.upstream = sunsetless.url;
      front.drop = (name) => name === 'sunset';
      const { code, report } = await verify(front.url);
      await sunsetless.stop();
      expect(failed(report!)).toEqual(['deprecation']);
      expect(code).toBe(1);
    } finally {
      await front.close();
    }
  });
});

describe('product-discovery verify behind broken fronts', () => {
  let front: Front;
  let service: RunningEntry;
  beforeAll(async () => {
    front = await startFront();
    service = await startEntry('bun', { PUBLIC_BASE_URL: front.url, RATE_LIMIT_QUOTA: '100000' });
    front.upstream = service.url;
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await front?.close();
  });

  it('passes through a transparent front, which counts exactly the requests verify reports: at most 60, reads only', async () => {
    front.break = 'none';
    front.seen = [];
    const { code, report } = await verify(front.url);
    expect(failed(report!)).toEqual([]);
    expect(code).toBe(0);
    expect(front.seen).toHaveLength(report!.requests);
    expect(front.seen.length).toBeLessThanOrEqual(60);
    expect(front.seen.filter((line) => !/^(GET|HEAD|OPTIONS) \//.test(line) && line !== 'POST /mcp')).toEqual([]);
  });

  const BROKEN: [Break, string][] = [
    ['strip-ratelimit', 'headers.rate-limit'],
    ['html-404', 'not-found'],
    ['drop-cors', 'headers.cors'],
  ];
  it.each(BROKEN)('catches a front that breaks %s with %s alone, exit 1', async (brk, id) => {
    front.break = brk;
    front.seen = [];
    const { code, report } = await verify(front.url);
    expect(failed(report!)).toEqual([id]);
    expect(code).toBe(1);
    expect(report!.checks.find((check) => check.id === id)!.hint).not.toBe('');
    expect(front.seen.length).toBeLessThanOrEqual(60);
  });

  it('catches a front under another host ({base} differs from the URL checked) with base alone, exit 1', async () => {
    front.break = 'none';
    const other = await startFront('none', service.url);
    try {
      const { code, report } = await verify(other.url);
      expect(failed(report!)).toEqual(['base']);
      expect(code).toBe(1);
      const base = report!.checks.find((check) => check.id === 'base')!;
      expect(base.got).toContain(front.url);
      expect(base.hint).toContain(`PUBLIC_BASE_URL=${other.url}`);
    } finally {
      await other.close();
    }
  });

  it('prints one line per check with the same ids as --json, and a summary line; no colour off a terminal', async () => {
    front.break = 'strip-ratelimit';
    const [lines, json] = [await verify(front.url, { json: false }), await verify(front.url)];
    const printed = lines.stdout.trim().split('\n');
    const ids = printed.filter((line) => /^[✓✗] /.test(line) && !/contract:/.test(line)).map((line) => line.split(/\s+/)[1]);
    expect(ids).toEqual(json.report!.checks.map((check) => check.id));
    expect(printed.find((line) => line.startsWith('✗ headers.rate-limit'))).toMatch(
      /expected .*; got RateLimit missing on \d+ of \d+ answers .*→ the proxy in front drops them/,
    );
    expect(printed.at(-1)).toMatch(
      new RegExp(`^✗ ${front.url} breaks the contract: \\d+ of \\d+ checks passed, 1 failed \\(\\d+ requests\\)$`),
    );
    expect(lines.stdout).not.toContain('\u001b[');
    expect(lines.code).toBe(1);
  });
});

describe('product-discovery verify at a terminal', () => {
  let entry: RunningEntry;
  beforeAll(async () => {
    entry = await startEntry('bun', { RATE_LIMIT_QUOTA: '1000' });
  });
  afterAll(() => entry?.stop());

  // `script` gives the command a pseudo-terminal, as a person's shell does.
  const atTerminal = (env: Record<string, string>) =>
    execFile('script', ['-qec', `${process.execPath} --import tsx src/cli.ts verify ${entry.url}`, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });

  it('colours the marks, unless NO_COLOR is set', async () => {
    expect((await atTerminal({})).stdout).toContain('\u001b[32m✓\u001b[0m get:/api/v1 ');
    const plain = await atTerminal({ NO_COLOR: '1' });
    expect(plain.stdout).toContain('✓ get:/api/v1 ');
    expect(plain.stdout).not.toContain('\u001b[');
  });
});

describe('product-discovery verify and 429s', () => {
  it('catches a front that caches a 429 for everyone with rate-limit.cached-429 alone, exit 1', async () => {
    const front = await startFront('cache-429');
    const service = await startEntry('bun', { PUBLIC_BASE_URL: front.url, RATE_LIMIT_QUOTA: '10', RATE_LIMIT_WINDOW_SECONDS: '1' });
    front.upstream = service.url;
    try {
      // One client uses up the quota on /api/v1/product (50 at once: more than a window admits even
      // if they straddle two): the front stores the 429 ...
      const statuses = await Promise.all(Array.from({ length: 50 }, () => fetch(`${front.url}/api/v1/product`).then((r) => r.status)));
      expect(statuses).toContain(429);
      // ... and serves it to the next client, seconds after the window that produced it ended.
      await sleep(4_000);
      const { code, report } = await verify(front.url);
      expect(failed(report!)).toEqual(['rate-limit.cached-429']);
      expect(code).toBe(1);
    } finally {
      await service.stop();
      await front.close();
    }
  });

  it('stops at the first genuine 429, saying the quota ran out and when to retry', async () => {
    const service = await startEntry('bun', { RATE_LIMIT_QUOTA: '10', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const { code, report } = await verify(service.url);
      expect(failed(report!)).toEqual(['rate-limit.quota']);
      expect(code).toBe(1);
      const quota = report!.checks.find((check) => check.id === 'rate-limit.quota')!;
      expect(quota.hint).toMatch(/the quota ran out .* retry after \d+ s \(at \d\d:\d\d:\d\d UTC\)/);
      // Health is not counted: ten counted requests, then the 429 on the eleventh.
      expect(report!.requests).toBeLessThan(15);
    } finally {
      await service.stop();
    }
  });
});
