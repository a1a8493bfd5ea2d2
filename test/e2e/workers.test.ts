/**
 * What only the Worker has: the quota held in the RATE_LIMIT_COUNTER Durable Object across
 * isolates (two Workers in one workerd, built from the same bundle `wrangler deploy` uploads), the
 * memory store per isolate without that binding, and a refused facts file stopping the start.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare, type WorkerOptions } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedStart, ROOT } from '../support/entries.ts';

const QUOTA = 5;
const dir = mkdtempSync(join(tmpdir(), 'e2e-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two Workers (two isolates) from the one bundle; the second uses the first one's counters if `shared`. */
function twoIsolates(script: string, shared: boolean): Miniflare {
  const worker = (name: string): WorkerOptions => ({
    name,
    modules: [{ type: 'ESModule', path: script }],
    modulesRoot: dir,
    compatibilityDate: '2026-04-26',
    compatibilityFlags: ['nodejs_compat'],
    bindings: { RATE_LIMIT_QUOTA: String(QUOTA) },
    durableObjects: shared ? { RATE_LIMIT_COUNTER: { className: 'RateLimitCounter', scriptName: 'first' } } : {},
  });
  return new Miniflare({ host: '127.0.0.1', port: 0, cf: false, workers: [worker('first'), worker('second')] });
}

describe('the Worker in workerd (Miniflare)', () => {
  let script: string;

  beforeAll(async () => {
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', dir], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    });
    script = join(dir, 'workers.js');
  });

  /** Requests from one client, alternating between the two isolates, each its own fetch call. */
  async function countdown(mf: Miniflare, client: string, requests: number) {
    const isolates = [await mf.getWorker('first'), await mf.getWorker('second')];
    const replies: { status: number; remaining: string | null; store: string | undefined }[] = [];
    for (let i = 0; i < requests; i++) {
      // Health is not counted, so the countdown goes through the API index; health names the store.
      const isolate = isolates[i % 2]!;
      const response = await isolate.fetch('http://worker.test/api/v1', { headers: { 'CF-Connecting-IP': client } });
      await response.arrayBuffer();
      const health = await isolate.fetch('http://worker.test/api/v1/health', { headers: { 'CF-Connecting-IP': client } });
      const body = (await health.json()) as { rateLimitStore?: string };
      replies.push({ status: response.status, remaining: response.headers.get('x-ratelimit-remaining'), store: body.rateLimitStore });
    }
    return replies;
  }

  describe('with the RATE_LIMIT_COUNTER binding', () => {
    let mf: Miniflare;
    beforeAll(async () => {
      mf = twoIsolates(script, true);
      await mf.ready;
    });
    afterAll(() => mf?.dispose());

    it(`counts one client across isolates 4..0, then 429, in the Durable Object store`, async () => {
      const replies = await countdown(mf, '198.51.100.7', QUOTA + 2);
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(replies.map((reply) => reply.remaining)).toEqual(['4', '3', '2', '1', '0', '0', '0']);
      expect(replies[0]!.store).toBe('durable-object');
    });

    it('counts two CF-Connecting-IP addresses apart', async () => {
      const first = await countdown(mf, '198.51.100.8', 3);
      const second = await countdown(mf, '2001:db8::8', 2);
      expect(first.map((reply) => reply.remaining)).toEqual(['4', '3', '2']);
      expect(second.map((reply) => reply.remaining)).toEqual(['4', '3']);
    });
  });

  describe('without the binding', () => {
    let mf: Miniflare;
    beforeAll(async () => {
      mf = twoIsolates(script, false);
      await mf.ready;
    });
    afterAll(() => mf?.dispose());

    it('counts in memory per isolate (the quota is not shared), and health says "memory"', async () => {
      const replies = await countdown(mf, '198.51.100.9', 4);
      expect(replies.map((reply) => reply.remaining)).toEqual(['4', '4', '3', '3']);
      expect(replies[0]!.store).toBe('memory');
    });
  });

  it('refuses to start with a facts file whose URL carries a credential, naming the field', async () => {
    const facts = JSON.parse(readFileSync(`${ROOT}src/sample-facts.json`, 'utf8'));
    facts.resources[1].url = 'https://editor:hunter2-pass@docs.example.com/';
    const path = join(dir, 'credential.json');
    writeFileSync(path, JSON.stringify(facts));
    const { code, output } = await failedStart('workers', { FACTS_FILE: path });
    expect(code).not.toBe(0);
    expect(output).toMatch(/resources\[1\]\.url: URL carries user info/);
    expect(output).not.toContain('hunter2-pass');
  });
});
