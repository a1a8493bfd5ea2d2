/**
 * AWS Lambda: the entry's `handler(event, context)` in processes of its own, each loading the module
 * as Lambda's init phase does, invoked with the event documents AWS documents for function URLs,
 * API Gateway HTTP (v2) and REST (v1) APIs and ALB (test/fixtures/lambda/). The quota shared through
 * a DynamoDB table served by dynalite, a local DynamoDB, with the official AWS SDK: exact across two
 * instances under concurrency, and when the table goes away mid-burst, no 5xx, health degraded, and
 * counting in the table again once it is back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/net.ts';
import { ROOT } from '../support/entries.ts';
import { ERAS, expectJsonRpcAnswer, frame, nestedRequests, TOOL_NAMES } from '../support/mcp.ts';
import { checkNetworkPolicies, eventually, POLICY_ENV } from '../support/ratelimit.ts';
import { createTable, startDynalite, stopDynalite } from '../support/dynamodb.ts';

const BASE = 'https://api.example.test';
const TABLE = 'product-discovery-ratelimit';
const dir = mkdtempSync(join(tmpdir(), 'e2e-lambda-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Shape = 'api-gateway-v2' | 'function-url' | 'api-gateway-v1' | 'alb';
const SHAPES: Shape[] = ['api-gateway-v2', 'function-url', 'api-gateway-v1', 'alb'];
const fixture = (shape: Shape) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures/lambda', `${shape}.json`), 'utf8'));

interface Call {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The client's address where the shape's platform puts it (for ALB: appended to X-Forwarded-For). */
  sourceIp?: string;
}

/** The documented event of `shape`, carrying this request in the fields that shape uses. */
function eventOf(shape: Shape, { method = 'GET', path, headers = {}, body, sourceIp = '198.51.100.1' }: Call) {
  const event = fixture(shape);
  // Bodies are sent base64-encoded, as API Gateway and function URLs do for any binary or unknown type.
  event.body = body === undefined ? null : Buffer.from(body).toString('base64');
  event.isBase64Encoded = body !== undefined;
  if (shape === 'api-gateway-v2' || shape === 'function-url') {
    Object.assign(event, { rawPath: path, rawQueryString: '', queryStringParameters: undefined, cookies: undefined, headers });
    Object.assign(event.requestContext.http, { method, path, sourceIp });
  } else if (shape === 'api-gateway-v1') {
    Object.assign(event, { path, httpMethod: method, headers, queryStringParameters: null, multiValueQueryStringParameters: null });
    event.multiValueHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));
    Object.assign(event.requestContext, { httpMethod: method, path: `/prod${path}` });
    event.requestContext.identity.sourceIp = sourceIp;
  } else {
    const forwarded = headers['x-forwarded-for'];
    Object.assign(event, { path, httpMethod: method, queryStringParameters: {} });
    event.headers = { ...event.headers, ...headers, 'x-forwarded-for': forwarded ? `${forwarded}, ${sourceIp}` : sourceIp };
  }
  return event;
}

interface Result {
  statusCode: number;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

/** A result's headers as one lower-case record, whichever form the shape answers in. */
function headersOf(result: Result): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = value;
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name.toLowerCase()] = values.join(', ');
  return headers;
}

const bodyOf = (result: Result) => (result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body));

/** One Lambda instance: a process that loaded the entry and takes invocations (test/fixtures/lambda/invoke.ts). */
class Instance {
  readonly child: ChildProcess;
  #output = '';
  #next = 0;
  #waiting = new Map<number, (result: Result) => void>();
  readonly ready: Promise<void>;
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>, nodeOptions: string[] = []) {
    this.child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', 'test/fixtures/lambda/invoke.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk) => (this.#output += chunk));
    this.child.stderr!.on('data', (chunk) => (this.#output += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
    let started!: () => void;
    this.ready = new Promise((resolve) => (started = resolve));
    createInterface({ input: this.child.stdio[3] as NodeJS.ReadableStream }).on('line', (line) => {
      const message = JSON.parse(line) as { ready?: true; id: number; result: Result };
      if (message.ready) return started();
      this.#waiting.get(message.id)?.(message.result);
      this.#waiting.delete(message.id);
    });
  }

  get output() {
    return this.#output;
  }

  invoke(shape: Shape, call: Call): Promise<Result> {
    return this.invokeWith(eventOf(shape, call));
  }

  /** Invokes the handler with any event, malformed ones included. */
  invokeWith(event: unknown): Promise<Result> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify({ id, event })}\n`);
    });
  }

  async stop() {
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

async function started(env: Record<string, string>): Promise<Instance> {
  const instance = new Instance(env);
  await Promise.race([instance.ready, instance.exited.then((code) => Promise.reject(new Error(`exited ${code}:\n${instance.output}`)))]);
  return instance;
}

const remaining = (result: Result) => headersOf(result)['x-ratelimit-remaining'];

describe('the Lambda handler with the documented event shapes', () => {
  let lambda: Instance;
  beforeAll(async () => {
    lambda = await started({ PUBLIC_BASE_URL: BASE, RATE_LIMIT_QUOTA: '100', RATE_LIMIT_WINDOW_SECONDS: '3600' });
  });
  afterAll(() => lambda?.stop());

  describe.each(SHAPES)('%s', (shape) => {
    it("answers GET with the API index, {base} from PUBLIC_BASE_URL, not the event's domain or Host", async () => {
      const result = await lambda.invoke(shape, { path: '/api/v1', headers: { host: 'forged.example', accept: 'application/json' } });
      expect(result.statusCode).toBe(200);
      expect(headersOf(result)['content-type']).toMatch(/^application\/json/);
      const text = bodyOf(result).toString();
      expect(JSON.parse(text).links).toBeDefined();
      expect(text).toContain(`${BASE}/openapi.json`);
      expect(text).not.toMatch(/forged\.example|amazonaws\.com|on\.aws/);
    });

    it('answers HEAD with the GET headers and no body, and 304 to a matching If-None-Match', async () => {
      const got = await lambda.invoke(shape, { path: '/api/v1/product' });
      const head = await lambda.invoke(shape, { method: 'HEAD', path: '/api/v1/product' });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(headersOf(head).etag).toBe(headersOf(got).etag);
      expect(headersOf(head)['content-type']).toBe(headersOf(got)['content-type']);
      const again = await lambda.invoke(shape, { path: '/api/v1/product', headers: { 'if-none-match': headersOf(got).etag! } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });

    it('answers unknown paths with a 404 problem and wrong methods with a 405 problem and Allow', async () => {
      const missing = await lambda.invoke(shape, { path: '/no/such/path' });
      expect(missing.statusCode).toBe(404);
      expect(headersOf(missing)['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(bodyOf(missing).toString())).toMatchObject({ status: 404, type: expect.stringMatching(new RegExp(`^${BASE}/`)) });
      const wrong = await lambda.invoke(shape, { method: 'DELETE', path: '/api/v1/product' });
      expect(wrong.statusCode).toBe(405);
      expect(headersOf(wrong).allow).toMatch(/GET/);
      expect(JSON.parse(bodyOf(wrong).toString())).toMatchObject({ status: 405 });
    });

    it('answers an MCP POST whose body came base64-encoded, in both protocol eras', async () => {
      for (const era of ['modern', 'legacy'] as const) {
        const { headers, body } = frame(era, 'tools/list');
        const result = await lambda.invoke(shape, { method: 'POST', path: '/mcp', headers, body });
        expect(result.statusCode, bodyOf(result).toString()).toBe(200);
        expect(headersOf(result)['content-type']).toMatch(/^application\/json/);
        const names = JSON.parse(bodyOf(result).toString()).result.tools.map((tool: { name: string }) => tool.name);
        expect(names).toEqual(expect.arrayContaining([...TOOL_NAMES]));
      }
    });

    it('sends a gzip body base64-encoded, as Lambda requires of bytes', async () => {
      const result = await lambda.invoke(shape, { path: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
      expect(headersOf(result)['content-encoding']).toBe('gzip');
      expect(result.isBase64Encoded).toBe(true);
      expect(JSON.parse(gunzipSync(bodyOf(result)).toString()).servers[0].url).toBe(BASE);
    });
  });

  it('counts each client by the address the platform gives, which a forged X-Forwarded-For does not change', async () => {
    for (const [i, shape] of SHAPES.entries()) {
      const client = `203.0.113.${10 + i}`;
      const counts: (string | undefined)[] = [];
      for (const forged of ['192.0.2.50', '192.0.2.51', '192.0.2.52']) {
        counts.push(remaining(await lambda.invoke(shape, { path: '/api/v1', sourceIp: client, headers: { 'x-forwarded-for': forged } })));
      }
      expect(counts, shape).toEqual(['99', '98', '97']);
      const other = await lambda.invoke(shape, {
        path: '/api/v1',
        sourceIp: `203.0.113.${20 + i}`,
        headers: { 'x-forwarded-for': client },
      });
      expect(remaining(other), shape).toBe('99');
    }
  });

  it('answers malformed events with the 400 bad_request problem, with every header, and writes no stack trace', async () => {
    const bad = fixture('function-url');
    bad.requestContext.http = null;
    const notBase64 = { ...eventOf('api-gateway-v2', { method: 'POST', path: '/mcp', body: '{}' }), body: '%%%' };
    for (const event of [null, 'GET /', 42, bad, notBase64]) {
      const result = await lambda.invokeWith(event);
      const headers = headersOf(result);
      expect(result.statusCode, JSON.stringify(event)).toBe(400);
      expect(headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers.link).toContain(`<${BASE}/openapi.json>`);
      expect(headers['x-ratelimit-limit']).toBe('100');
      expect(JSON.parse(bodyOf(result).toString())).toMatchObject({ code: 'bad_request' });
    }
    expect(lambda.output).not.toMatch(/^\s+at .+[:(]\d+/m);
  });

  it.each(SHAPES)('gives JSON nested 5,000 deep in an MCP request a JSON-RPC answer (%s)', async (shape) => {
    for (const era of ERAS) {
      for (const { id, headers, body } of nestedRequests(era)) {
        const result = await lambda.invoke(shape, { method: 'POST', path: '/mcp', headers, body });
        expectJsonRpcAnswer(result.statusCode, headersOf(result)['content-type'] ?? null, bodyOf(result).toString(), id);
      }
    }
  });

  it('says "memory" in health when no shared store is configured', async () => {
    const health = await lambda.invoke('function-url', { path: '/api/v1/health' });
    expect(JSON.parse(bodyOf(health).toString())).toMatchObject({ status: 'ok', rateLimitStore: 'memory' });
  });
});

describe('the Lambda module refusing to load', () => {
  async function refused(env: Record<string, string>, nodeOptions: string[] = []) {
    const instance = new Instance(env, nodeOptions);
    const code = await instance.exited;
    expect(instance.output).not.toMatch(/^\s+at .+[:(]\d+/m);
    return { code, output: instance.output };
  }

  it('without PUBLIC_BASE_URL, naming it and what to set', async () => {
    const { code, output } = await refused({});
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n  PUBLIC_BASE_URL is unset: on AWS Lambda it is required');
  });

  it('with a bad variable, naming it', async () => {
    const { code, output } = await refused({ PUBLIC_BASE_URL: BASE, RATE_LIMIT_DYNAMODB_TABLE: 'a' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:\n  RATE_LIMIT_DYNAMODB_TABLE="a": must be a DynamoDB table name');
  });

  it('with the DynamoDB table but no AWS region, naming AWS_REGION', async () => {
    const { code, output } = await refused({ PUBLIC_BASE_URL: BASE, RATE_LIMIT_DYNAMODB_TABLE: TABLE });
    expect(code).toBe(1);
    expect(output).toContain('RATE_LIMIT_DYNAMODB_TABLE is set but no AWS region is: set AWS_REGION');
  });

  it('with the DynamoDB table but without the AWS SDK installed, naming the package', async () => {
    const env = { PUBLIC_BASE_URL: BASE, RATE_LIMIT_DYNAMODB_TABLE: TABLE, AWS_REGION: 'us-east-1' };
    const { code, output } = await refused(env, ['--import', './test/fixtures/lambda/without-aws-sdk.mjs']);
    expect(code).toBe(1);
    expect(output).toContain(
      'RATE_LIMIT_DYNAMODB_TABLE is set but the package @aws-sdk/client-dynamodb is not installed: run `npm install @aws-sdk/client-dynamodb`',
    );
  });

  it('with a refused FACTS_FILE, naming the file and the field', async () => {
    const facts = JSON.parse(readFileSync(join(ROOT, 'src/facts/sample-facts.json'), 'utf8'));
    facts.resources[1].url = 'https://editor:hunter2-pass@docs.example.com/';
    const path = join(dir, 'credential.json');
    writeFileSync(path, JSON.stringify(facts));
    const { code, output } = await refused({ PUBLIC_BASE_URL: BASE, FACTS_FILE: path });
    expect(code).toBe(1);
    expect(output).toContain(`Facts file ${path} was refused:\n  resources[1].url: URL carries user info`);
    expect(output).not.toContain('hunter2-pass');
  });

  it('with two shared stores, naming both', async () => {
    const { code, output } = await refused({
      PUBLIC_BASE_URL: BASE,
      RATE_LIMIT_DYNAMODB_TABLE: TABLE,
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(code).toBe(1);
    expect(output).toContain('REDIS_URL and RATE_LIMIT_DYNAMODB_TABLE are both set: choose one shared store');
  });
});

describe('the quota shared through DynamoDB (dynalite)', () => {
  let port: number;
  let dynalite: ChildProcess;
  const path = join(dir, 'dynalite');
  const aws = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };

  beforeAll(async () => {
    port = await freePort();
    dynalite = await startDynalite(port, path);
    await createTable(port, TABLE);
  });
  afterAll(() => dynalite && stopDynalite(dynalite));

  const envFor = (quota: number) => ({
    ...aws,
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${port}`,
    PUBLIC_BASE_URL: BASE,
    RATE_LIMIT_DYNAMODB_TABLE: TABLE,
    RATE_LIMIT_QUOTA: String(quota),
    RATE_LIMIT_WINDOW_SECONDS: '3600',
  });

  it('admits exactly the quota (5) of 20 concurrent requests spread over two instances, from the first request', async () => {
    const instances = await Promise.all([started(envFor(5)), started(envFor(5))]);
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          instances[i % 2]!.invoke(SHAPES[i % SHAPES.length]!, { path: '/api/v1', sourceIp: '198.51.100.77' }),
        ),
      );
      const statuses = results.map((result) => result.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
      const admitted = results
        .filter((result) => result.statusCode === 200)
        .map(remaining)
        .sort();
      expect(admitted).toEqual(['0', '1', '2', '3', '4']);
      const health = await instances[1]!.invoke('function-url', { path: '/api/v1/health' });
      expect(JSON.parse(bodyOf(health).toString())).toMatchObject({ status: 'ok', rateLimitStore: 'dynamodb' });
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  });

  it('refuses to load with a table that does not exist, in one line naming the variable, exit 1', async () => {
    const instance = new Instance({ ...envFor(5), RATE_LIMIT_DYNAMODB_TABLE: 'no-such-table' });
    expect(await instance.exited).toBe(1);
    expect(instance.output).toContain(
      'Invalid configuration:\n  RATE_LIMIT_DYNAMODB_TABLE="no-such-table": no such table in us-east-1: create it',
    );
    expect(instance.output).not.toMatch(/^\s+at .+[:(]\d+/m);
  });

  it('counts per-network policies in the table across two instances', async () => {
    const instances = await Promise.all([started({ ...envFor(5), ...POLICY_ENV }), started({ ...envFor(5), ...POLICY_ENV })]);
    try {
      let next = 0;
      await checkNetworkPolicies(async (address) => {
        const result = await instances[next++ % 2]!.invoke('api-gateway-v1', { path: '/api/v1', sourceIp: address });
        return new Response(result.statusCode === 304 ? null : bodyOf(result), { status: result.statusCode, headers: headersOf(result) });
      });
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  });

  it('keeps answering when DynamoDB goes away mid-burst (no 5xx, health degraded), and counts in it again once it is back', async () => {
    const instances = await Promise.all([started(envFor(1000)), started(envFor(1000))]);
    try {
      const burst = (client: string, n: number) =>
        Promise.all(Array.from({ length: n }, (_, i) => instances[i % 2]!.invoke('api-gateway-v2', { path: '/api/v1', sourceIp: client })));
      const before = await burst('198.51.100.88', 10);
      expect(before.map((result) => result.statusCode)).toEqual(Array(10).fill(200));

      const during = burst('198.51.100.88', 40);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await stopDynalite(dynalite);
      const after = [...(await during), ...(await burst('198.51.100.88', 10))];
      expect(after.map((result) => result.statusCode)).toEqual(Array(50).fill(200));
      for (const instance of instances) {
        const health = JSON.parse(bodyOf(await instance.invoke('function-url', { path: '/api/v1/health' })).toString());
        expect(health).toMatchObject({ status: 'degraded', rateLimitStore: 'dynamodb' });
        // A connection open when DynamoDB stopped is reset; a new one is refused.
        expect(health.reason).toMatch(/DynamoDB call failed \((ECONNREFUSED|ECONNRESET)\).*counting in memory per instance/);
      }

      dynalite = await startDynalite(port, path);
      // Each instance probes the table once a second while it is down: back within about a second.
      const backAt = Date.now();
      for (const instance of instances) {
        const ok = await eventually(async () => {
          const health = JSON.parse(bodyOf(await instance.invoke('function-url', { path: '/api/v1/health' })).toString());
          return health.status === 'ok';
        }, 5_000);
        expect(ok, 'health ok again').toBe(true);
      }
      expect(Date.now() - backAt).toBeLessThan(3_000);
      const client = '198.51.100.99';
      const back: string[] = [];
      for (let i = 0; i < 4; i++) back.push(remaining(await instances[i % 2]!.invoke('alb', { path: '/api/v1', sourceIp: client }))!);
      expect(back).toEqual(['999', '998', '997', '996']);
      for (const instance of instances) {
        const health = JSON.parse(bodyOf(await instance.invoke('function-url', { path: '/api/v1/health' })).toString());
        expect(health).toMatchObject({ status: 'ok', rateLimitStore: 'dynamodb' });
      }
      for (const instance of instances) {
        expect(instance.output.match(/"event":"rate_limit_store_lost"/g)).toHaveLength(1);
        expect(instance.output.match(/"event":"rate_limit_store_regained"/g)).toHaveLength(1);
      }
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
    }
  });
});
