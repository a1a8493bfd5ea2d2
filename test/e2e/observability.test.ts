/**
 * OpenTelemetry as an operator runs it: the service on Bun, Node and Deno exporting to an OTLP/HTTP
 * receiver this test runs (Bun and Node through the SDK, over http/json and http/protobuf; Deno
 * through its built-in OpenTelemetry), Prometheus text on METRICS_PORT, and nothing of
 * OpenTelemetry loaded when it is not configured.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedStart, ROOT, startEntry, type RunningEntry } from '../support/entries.ts';
import { frame } from '../support/mcp.ts';
import { freePort } from '../support/net.ts';
import { eventually, startOtlpReceiver } from '../support/otlp.ts';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const SCOPE = 'product-discovery-api';
const randomHex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('');

const RUNS = [
  { runtime: 'node', env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, contentType: 'application/x-protobuf' },
  { runtime: 'bun', env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, contentType: 'application/json' },
  // Deno's own exporter, fed through @opentelemetry/api's global providers.
  { runtime: 'deno', env: { OTEL_DENO: 'true', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, contentType: 'application/x-protobuf' },
] as const;

describe.each(RUNS)('OpenTelemetry on $runtime', ({ runtime, env, contentType }) => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let server: RunningEntry;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await startEntry(runtime, {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'discovery-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      RATE_LIMIT_QUOTA: '4',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("continues the caller's trace: the request's span with its route, status and agent class, no client address", async () => {
    const traceId = randomHex(16);
    const response = await fetch(`${server.url}/api/v1/product?lang=en`, {
      headers: { traceparent: `00-${traceId}-${randomHex(8)}-01`, 'user-agent': GPTBOT },
    });
    expect(response.status).toBe(200);
    const span = await eventually(
      () => receiver.spans.find((span) => span.traceId === traceId && span.name === 'GET /api/v1/product'),
      'the product span',
    );
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/product',
      'http.response.status_code': 200,
      'agent.class': 'ai-training',
      'agent.name': 'GPTBot',
    });
    // Deno's own span of Deno.serve (scope `deno`) follows Deno's conventions, url.query included.
    const ours = receiver.spans.filter((each) => each.traceId === traceId && each.scope === SCOPE);
    expect(JSON.stringify(ours)).not.toMatch(/127\.0\.0\.1|lang=en/);
    expect(receiver.contentTypes).toContain(contentType);
  });

  it('gives an MCP tools/call its MCP span, and the store call a child span', async () => {
    const traceId = randomHex(16);
    const { headers, body } = frame('modern', 'tools/call', { name: 'get_product_overview', arguments: {} });
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, traceparent: `00-${traceId}-${randomHex(8)}-01` },
      body,
    });
    expect(response.status).toBe(200);
    const request = await eventually(
      () => receiver.spans.find((span) => span.traceId === traceId && span.name === 'POST /mcp'),
      'the /mcp span',
    );
    const message = await eventually(
      () => receiver.spans.find((span) => span.traceId === traceId && span.name === 'tools/call get_product_overview'),
      'the MCP span',
    );
    expect(message.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_product_overview',
      'mcp.protocol.version': '2026-07-28',
    });
    expect(message.parentSpanId).toBe(request.spanId);
    const store = receiver.spans.find((span) => span.traceId === traceId && span.attributes['db.system.name'] === 'memory');
    expect(store?.parentSpanId).toBe(request.spanId);
  });

  it('sends the duration histogram and the refusal counter', async () => {
    for (let i = 0; i < 6; i++) await fetch(`${server.url}/api/v1`);
    await eventually(
      () => receiver.points.find((point) => point.metric === 'ratelimit.refusals' && point.attributes['ratelimit.policy'] === 'default'),
      'a refusal',
    );
    const durations = await eventually(
      () =>
        receiver.points.find(
          (point) =>
            point.scope === SCOPE &&
            point.metric === 'http.server.request.duration' &&
            point.attributes['http.response.status_code'] === 429,
        ),
      'the 429s in the duration histogram',
    );
    expect(durations.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.route': '/api/v1', 'agent.class': 'other' });
    expect(durations.value).toBeGreaterThan(0);
  });
});

describe('Prometheus on METRICS_PORT', () => {
  let server: RunningEntry;
  let metricsUrl: string;
  beforeAll(async () => {
    // One the system just gave out: a random port may be a connection's own (the range overlaps the ephemeral ports).
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    server = await startEntry('node', { METRICS_PORT: String(port), RATE_LIMIT_QUOTA: '100000' });
  }, 60_000);
  afterAll(() => server?.stop());

  const scrape = async () => parsePrometheusTextFormat(await (await fetch(metricsUrl)).text());
  const seriesCount = (families: ReturnType<typeof parsePrometheusTextFormat>) =>
    families.reduce((sum, family) => sum + family.metrics.length, 0);

  it('serves Prometheus text on its own listener, never on the public port', async () => {
    await fetch(`${server.url}/api/v1/product`);
    const families = await scrape();
    const names = families.map((family) => family.name);
    expect(names).toContain('http_server_request_duration');
    expect(names).toContain('facts_age');
    const publicMetrics = await fetch(`${server.url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('adds no series for 1,000 requests with random paths and user agents', async () => {
    await fetch(`${server.url}/nope`, { headers: { 'user-agent': 'seed/1' } });
    const before = seriesCount(await scrape());
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${server.url}/${randomHex(6)}/${i}`, { headers: { 'user-agent': `random-${randomHex(8)}/1.0` } }),
      ),
    );
    expect(seriesCount(await scrape())).toBe(before);
  });
});

describe('OpenTelemetry off', () => {
  it('loads no OpenTelemetry module when nothing asks for it', async () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'imports-')), 'trace.txt');
    const server = await startEntry('node', {
      NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'test/support/trace-imports.mjs'))}`,
      TRACE_IMPORTS: trace,
    });
    try {
      const { headers, body } = frame('modern', 'tools/call', { name: 'search', arguments: { query: 'trial' } });
      expect((await fetch(`${server.url}/mcp`, { method: 'POST', headers, body })).status).toBe(200);
      expect((await fetch(`${server.url}/api/v1/product`)).headers.get('server-timing')).toBeNull();
    } finally {
      await server.stop();
    }
    const loaded = readFileSync(trace, 'utf8');
    // The entry ran (its start-up bundle, or the sources), and nothing read an agent's class.
    expect(loaded).toMatch(/start\/node\.js|src\/handler\.ts/);
    expect(loaded).not.toContain('@opentelemetry');
    expect(loaded).not.toContain('crawler-user-agents');
  });
});

describe('OpenTelemetry configured without its packages', () => {
  it('stops start-up with one message naming the packages to install', async () => {
    const { code, output } = await failedStart('node', {
      NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'test/support/hide-opentelemetry.mjs'))}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    });
    expect(code).toBe(1);
    expect(output).toContain('OTEL_EXPORTER_OTLP_ENDPOINT (OpenTelemetry) needs @opentelemetry/api, ');
    expect(output).toContain('npm install @opentelemetry/api @opentelemetry/resources');
    expect(output).toContain('@opentelemetry/exporter-trace-otlp-proto');
    expect(output).not.toMatch(/^\s+at /m);
  });
});
