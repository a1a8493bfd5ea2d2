/**
 * Start-up and shut-down of the real Bun, Deno and Node entries: a bad configuration or facts file,
 * a port in use or an address that cannot be bound stops start-up with a message naming the
 * variable or field (exit code not 0); SIGTERM and SIGINT
 * stop the server cleanly after the requests in flight.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/e2e.ts';
import { sleep } from '../support/net.ts';
import { ENTRIES, failedStart, ROOT, RUNTIMES, startEntry } from '../support/entries.ts';

const dir = mkdtempSync(join(tmpdir(), 'e2e-facts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A port held by this test process for the whole file, so "already in use" is certain.
let busy: Server;
beforeAll(() => new Promise<void>((resolve) => (busy = createServer().listen(0, '127.0.0.1', resolve))));
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

/** A copy of the shipped sample with one change, written under the OS temp directory. */
function factsFile(name: string, change: (facts: any) => void): string {
  const facts = JSON.parse(readFileSync(`${ROOT}src/facts/sample-facts.json`, 'utf8'));
  change(facts);
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(facts, null, 2));
  return path;
}

interface Refusal {
  name: string;
  env: () => Record<string, string>;
  /** What the message must name: the variable or the field. */
  names: RegExp[];
  /** What must not be echoed (a credential from the facts file). */
  secret?: string;
}

const REFUSALS: Refusal[] = [
  { name: 'PORT that is not a number', env: () => ({ PORT: 'eighty' }), names: [/\bPORT\b/] },
  { name: 'PORT out of range', env: () => ({ PORT: '65536' }), names: [/\bPORT\b/] },
  { name: 'PORT already in use', env: () => ({ PORT: String((busy.address() as AddressInfo).port) }), names: [/\bPORT\b/, /in use/] },
  // 192.0.2.1 is a documentation address (RFC 5737): never one of this machine's, so it cannot be bound.
  { name: 'HOST that is not an address of this machine', env: () => ({ HOST: '192.0.2.1' }), names: [/\bHOST\b/, /192\.0\.2\.1/] },
  { name: 'RATE_LIMIT_FAIL not open or closed', env: () => ({ RATE_LIMIT_FAIL: 'sometimes' }), names: [/\bRATE_LIMIT_FAIL\b/] },
  { name: 'REDIS_URL that is not a URL', env: () => ({ REDIS_URL: 'not a url' }), names: [/\bREDIS_URL\b/] },
  { name: 'REDIS_URL with another scheme', env: () => ({ REDIS_URL: 'http://127.0.0.1:6379' }), names: [/\bREDIS_URL\b/] },
  {
    name: 'REDIS_CLUSTER_URLS with a bad item',
    env: () => ({ REDIS_CLUSTER_URLS: 'redis://127.0.0.1:7001,127.0.0.1:7002' }),
    names: [/\bREDIS_CLUSTER_URLS\b/, /"127\.0\.0\.1:7002" is not a redis:\/\//],
  },
  {
    name: 'REDIS_URL and REDIS_CLUSTER_URLS both set',
    env: () => ({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_URLS: 'redis://127.0.0.1:7001' }),
    names: [/REDIS_URL and REDIS_CLUSTER_URLS are both set/],
  },
  {
    name: 'REDIS_SENTINEL_URLS without REDIS_SENTINEL_MASTER',
    env: () => ({ REDIS_SENTINEL_URLS: 'redis://127.0.0.1:26379' }),
    names: [/REDIS_SENTINEL_MASTER is unset/],
  },
  {
    name: 'RATE_LIMIT_POLICIES with a bad network',
    env: () => ({
      RATE_LIMIT_POLICIES:
        '[{"name":"agents","networks":["160.79.104.0/21"],"quota":1200,"windowSeconds":60},{"name":"office","networks":["10.0.0.0/33"],"quota":9,"windowSeconds":60}]',
    }),
    names: [/RATE_LIMIT_POLICIES\[1\]\.networks\[0\]: "10\.0\.0\.0\/33"/],
  },
  {
    name: 'sunset less than 90 days after the deprecation',
    env: () => ({ DEPRECATION_DATE: '2026-01-01', SUNSET_DATE: '2026-03-01' }),
    names: [/\bSUNSET_DATE\b/, /\b90\b/],
  },
  { name: 'DEPRECATION_DATE without SUNSET_DATE', env: () => ({ DEPRECATION_DATE: '2026-01-01' }), names: [/\bSUNSET_DATE\b/] },
  { name: 'SUNSET_DATE without DEPRECATION_DATE', env: () => ({ SUNSET_DATE: '2026-12-31' }), names: [/\bDEPRECATION_DATE\b/] },
  {
    name: 'facts URL with user info',
    env: () => ({
      FACTS_FILE: factsFile('user-info', (facts) => (facts.resources[1].url = 'https://editor:hunter2-pass@docs.example.com/')),
    }),
    names: [/resources(\[1\]|\.1|\/1)\.?\/?url/],
    secret: 'hunter2-pass',
  },
  {
    name: 'facts URL with a token query parameter',
    env: () => ({
      FACTS_FILE: factsFile('token', (facts) => (facts.startOptions[0].url = 'https://docs.example.com/getting-started?token=abc-s3cr3t')),
    }),
    names: [/startOptions(\[0\]|\.0|\/0)\.?\/?url/],
    secret: 'abc-s3cr3t',
  },
  {
    name: 'facts URL with a signature query parameter (any case)',
    env: () => ({
      FACTS_FILE: factsFile('signature', (facts) => (facts.resources[2].url = 'https://www.example.com/pricing?X-Amz-Signature=f00dfeed')),
    }),
    names: [/resources(\[2\]|\.2|\/2)\.?\/?url/],
    secret: 'f00dfeed',
  },
  {
    name: 'facts date that does not exist (month 13)',
    env: () => ({ FACTS_FILE: factsFile('month-13', (facts) => (facts.product.reviewedOn = '2026-13-01')) }),
    names: [/product\.reviewedOn: "2026-13-01" is not a date that exists \(there is no month 13\); give a real calendar date/],
  },
  {
    name: 'facts text with an e-mail address',
    env: () => ({ FACTS_FILE: factsFile('e-mail', (facts) => (facts.product.summary = 'Ask jane.doe@example.com for a demo.')) }),
    names: [/product\.summary: "jane\.doe@example\.com" is an e-mail address/, /product\.contact\.email/],
  },
  { name: 'missing FACTS_FILE', env: () => ({ FACTS_FILE: join(dir, 'does-not-exist.json') }), names: [/\bFACTS_FILE\b/] },
  {
    name: 'FACTS_FILE that is not JSON',
    env: () => {
      const path = join(dir, 'not-json.json');
      writeFileSync(path, '{ "product": ');
      return { FACTS_FILE: path };
    },
    // Every runtime names the position, Bun included (its JSON.parse gives none).
    names: [/not-json\.json is not valid JSON at line 1, column 14/],
  },
];

describe.each(RUNTIMES)('%s entry: start-up refusals', (runtime) => {
  it.each(REFUSALS)('refuses a $name, naming it, with a non-zero exit code', async ({ env, names, secret }) => {
    const { code, output } = await failedStart(runtime, env());
    expect(code, `exit code (output: ${output})`).not.toBe(0);
    expect(code, 'exited by itself, not killed by the test timeout').not.toBeNull();
    expect(output).not.toMatch(/Serving /);
    for (const name of names) expect(output).toMatch(name);
    // A clear message, not a crash: no stack trace.
    expect(output).not.toMatch(/^\s+at .+[:(]\d+/m);
    if (secret) expect(output, 'the credential is not echoed').not.toContain(secret);
  });
});

// The public base URL's rule (src/contract/base-url.ts): one line naming the variable, exit 1, the password never echoed.
describe.each(RUNTIMES)('%s entry: a public base URL it would publish wrongly', (runtime) => {
  it.each([
    ['https://user:secret@api.example.com', /must not carry user information/],
    [' https://api.example.com', /must not begin or end with white space/],
  ])('PUBLIC_BASE_URL=%j stops start-up with one line naming it, exit 1', async (value, words) => {
    const { code, output } = await failedStart(runtime, { PUBLIC_BASE_URL: value });
    expect(code, output).toBe(1);
    const naming = output.split('\n').filter((line) => line.includes('PUBLIC_BASE_URL'));
    expect(naming, output).toHaveLength(1);
    expect(naming[0]).toMatch(words);
    expect(output).toMatch(/^Invalid configuration:$/m);
    expect(output).not.toMatch(/Serving /);
    expect(output).not.toContain('secret');
    expect(output).not.toMatch(/^\s+at .+[:(]\d+/m);
  });
});

describe.each(ENTRIES)('%s entry: the start line', (runtime) => {
  it('names the product of the facts it serves, with the URL and {base}', async () => {
    const server = await startEntry(runtime, { FACTS_FILE: factsFile('renamed', (facts) => (facts.product.name = 'Renamed Studio')) });
    try {
      expect(server.output()).toMatch(
        new RegExp(`^Serving Renamed Studio public API \\S+( \\(the Worker in workerd\\))? on ${server.url} \\(public base `, 'm'),
      );
    } finally {
      await server.stop();
    }
  });
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e-shutdown', version: '1.0.0' } },
});

describe.each(RUNTIMES)('%s entry: clean shutdown', (runtime) => {
  it('on SIGTERM finishes a request whose body is still arriving, then exits 0', async () => {
    const QUOTA = 1000;
    const client = '198.51.100.7';
    const server = await startEntry(runtime, { RATE_LIMIT_QUOTA: String(QUOTA), TRUST_PROXY_HOPS: '1' });
    // A keep-alive client, as most are: the server must still close the connection and exit.
    const agent = new Agent({ keepAlive: true });
    try {
      const half = Math.floor(INITIALIZE.length / 2);
      let post!: ReturnType<typeof request>;
      const answer = new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
        post = request(
          `${server.url}/mcp`,
          {
            method: 'POST',
            agent,
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              'Content-Length': String(Buffer.byteLength(INITIALIZE)),
              'X-Forwarded-For': client,
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
            res.on('error', reject);
          },
        );
        post.on('error', reject);
      });
      post.write(INITIALIZE.slice(0, half));

      // The request is counted as soon as the handler has it, before its body is read: a preflight
      // (not counted) from the same client shows when that has happened.
      for (let i = 0; i < 200; i++) {
        const peek = await send(`${server.url}/mcp`, { method: 'OPTIONS', headers: { 'X-Forwarded-For': client } });
        if (Number(peek.headers['x-ratelimit-remaining']) < QUOTA) break;
        await sleep(10);
      }

      const exited = server.stop('SIGTERM');
      await sleep(300); // let the signal land while the body is incomplete
      expect(server.child.exitCode, 'still running while a request is in flight').toBeNull();
      post.end(INITIALIZE.slice(half));

      const { status, text } = await answer;
      expect(status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        result: { protocolVersion: '2025-06-18', serverInfo: { name: expect.any(String) } },
      });
      expect(await exited, `exit code (output: ${server.output()})`).toBe(0);
    } finally {
      agent.destroy();
      server.child.kill('SIGKILL');
    }
  });

  it('on SIGINT exits 0', async () => {
    const server = await startEntry(runtime);
    try {
      expect((await send(`${server.url}/api/v1/health`)).status).toBe(200);
      expect(await server.stop('SIGINT'), `exit code (output: ${server.output()})`).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
