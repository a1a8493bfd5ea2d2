/**
 * OpenTelemetry through the handler, with the real SDK and its in-memory exporter: the spans and
 * metrics each request gives, and what never goes into them.
 */
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BASE, closeHandlers, makeHandler, send } from '../support/handler.ts';
import { serveDirectory, signedHeaders } from '../support/web-bot-auth.ts';
import { ERAS, frame } from '../support/mcp.ts';
import { STORE_DURATION_BUCKETS } from '../../src/telemetry/otel.ts';

class CollectingReader extends MetricReader {
  protected override onForceFlush = async () => {};
  protected override onShutdown = async () => {};
  async points(name: string): Promise<DataPoint<unknown>[]> {
    // Every kind of point; each test reads the kind its metric has.
    const { resourceMetrics } = await this.collect();
    return resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .filter((metric) => metric.descriptor.name === name)
      .flatMap((metric) => metric.dataPoints as DataPoint<unknown>[]);
  }
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

describe('OpenTelemetry through the handler', () => {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  let reader: CollectingReader;
  let meterProvider: MeterProvider;
  beforeEach(() => {
    spans.reset();
    reader = new CollectingReader();
    meterProvider = new MeterProvider({ readers: [reader] });
  });
  afterAll(closeHandlers);

  it("continues the caller's trace with a server span named after the route, and no client address or query", async () => {
    const handler = await makeHandler({ telemetry: { tracerProvider, meterProvider } });
    const response = await send(handler, '/api/v1/product?secret=1', {
      address: '198.51.100.23',
      headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, 'user-agent': GPTBOT },
    });
    expect(response.status).toBe(200);
    const [store, server] = spans.getFinishedSpans();
    expect(server!.name).toBe('GET /api/v1/product');
    expect(server!.spanContext().traceId).toBe(TRACE_ID);
    expect(server!.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(server!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/product',
      'url.path': '/api/v1/product',
      'http.response.status_code': 200,
      'user_agent.original': GPTBOT,
      'agent.class': 'ai-training',
      'agent.name': 'GPTBot',
    });
    const everything = JSON.stringify(spans.getFinishedSpans().map((span) => span.attributes));
    expect(everything).not.toContain('198.51.100.23');
    expect(everything).not.toContain('secret');
    expect(store!.name).toBe('ratelimit memory');
    expect(store!.attributes['db.system.name']).toBe('memory');
    expect(store!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId);
  });

  it("gives each MCP message a span with the MCP conventions, a child of the request's", async () => {
    const handler = await makeHandler({ telemetry: { tracerProvider, meterProvider } });
    const { headers, body } = frame('modern', 'tools/call', { name: 'list_start_options', arguments: {} });
    const response = await send(handler, '/mcp', { method: 'POST', headers, body });
    expect(response.status).toBe(200);
    const server = spans.getFinishedSpans().find((span) => span.name === 'POST /mcp')!;
    const message = spans.getFinishedSpans().find((span) => span.name === 'tools/call list_start_options')!;
    expect(message.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'list_start_options',
      'mcp.protocol.version': '2026-07-28',
    });
    expect(message.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(server.attributes['agent.class']).toBe('mcp-client');
    const [operation] = await reader.points('mcp.server.operation.duration');
    expect(operation!.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'list_start_options',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
    });
  });

  it('records request durations by method, route, status and agent class, and refusals by policy', async () => {
    const handler = await makeHandler({ telemetry: { meterProvider }, rateLimit: { quota: 1 } });
    await send(handler, '/api/v1', { headers: { 'user-agent': 'curl/8.5.0' } });
    await send(handler, '/api/v1', { headers: { 'user-agent': 'curl/8.5.0' } });
    const points = (await reader.points('http.server.request.duration')) as DataPoint<Histogram>[];
    const byStatus = Object.fromEntries(points.map((point) => [point.attributes['http.response.status_code'] as number, point]));
    expect(byStatus[200]!.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/api/v1',
      'http.response.status_code': 200,
      'agent.class': 'other',
    });
    expect(byStatus[429]!.value.count).toBe(1);
    const [refusal] = await reader.points('ratelimit.refusals');
    expect(refusal).toMatchObject({ attributes: { 'ratelimit.policy': 'default', 'ratelimit.refusal': 'rate_limited' }, value: 1 });
    const [age] = await reader.points('facts.age');
    expect(age!.value).toBeGreaterThan(0);
  });

  it('names a verified agent by its origin (agent.verified) in the span and the metrics', async () => {
    const directory = await serveDirectory();
    try {
      const policies = [{ name: 'signer', agents: [directory.origin], quota: 50, windowSeconds: 60 }];
      const handler = await makeHandler({ telemetry: { tracerProvider, meterProvider }, rateLimit: { policies } });
      const headers = { ...(await signedHeaders({ authority: new URL(BASE).host, agent: directory.origin })), 'user-agent': GPTBOT };
      expect((await send(handler, '/api/v1', { headers })).status).toBe(200);
      await send(handler, '/api/v1', { headers: { 'user-agent': GPTBOT } });
      const [signed, unsigned] = spans.getFinishedSpans().filter((span) => span.name === 'GET /api/v1');
      expect(signed!.attributes).toMatchObject({
        'agent.class': 'ai-training',
        'agent.name': 'GPTBot',
        'agent.verified': directory.origin,
      });
      expect(unsigned!.attributes).not.toHaveProperty('agent.verified');
      const points = await reader.points('http.server.request.duration');
      expect(points.map((point) => point.attributes['agent.verified'])).toEqual([directory.origin, undefined]);
    } finally {
      await directory.close();
    }
  });

  it('records store calls in seconds on bounds in seconds, so that a sub-millisecond call and a slow one fall apart', async () => {
    const handler = await makeHandler({ telemetry: { meterProvider } });
    await send(handler, '/api/v1');
    const [point] = (await reader.points('ratelimit.store.duration')) as DataPoint<Histogram>[];
    expect(point!.attributes).toEqual({ 'db.system.name': 'memory' });
    const { boundaries, counts } = point!.value.buckets;
    expect(boundaries).toEqual(STORE_DURATION_BUCKETS);
    expect(boundaries[0]).toBeLessThanOrEqual(0.0001);
    expect(boundaries.at(-1)).toBeGreaterThan(1);
    // The memory store answers within a fraction of a millisecond: the call lands in a bucket below 1 ms.
    expect(counts.findIndex((count) => count > 0)).toBeLessThan(boundaries.indexOf(0.001) + 1);
  });

  it('adds no series for random paths, methods and user agents', async () => {
    const handler = await makeHandler({ telemetry: { meterProvider } });
    for (let i = 0; i < 200; i++) {
      await send(handler, `/random/${i}/${Math.random()}`, {
        method: i % 2 ? 'GET' : `X${i}`,
        headers: { 'user-agent': `agent-${i}/${Math.random()}` },
      });
    }
    const points = await reader.points('http.server.request.duration');
    // Unknown methods are _OTHER, an unmatched path has no route: two series, however many requests.
    expect(points).toHaveLength(2);
    expect(points.map((point) => point.attributes)).toEqual([
      { 'http.request.method': '_OTHER', 'http.response.status_code': 404, 'agent.class': 'other' },
      { 'http.request.method': 'GET', 'http.response.status_code': 404, 'agent.class': 'other' },
    ]);
  });

  it.each(ERAS)("parents a %s message's span by the trace context in params._meta, linked to the request's span", async (era) => {
    const handler = await makeHandler({ telemetry: { tracerProvider, meterProvider } });
    const host = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };
    const { headers, body } = frame(era, 'tools/call', { name: 'list_start_options', arguments: {} });
    const framed = JSON.parse(body);
    framed.params._meta = { ...framed.params._meta, traceparent: `00-${host.traceId}-${host.spanId}-01`, tracestate: 'vendor=1' };
    // The HTTP request carries another trace (a proxy's, say): the message joins the host's and links the request's.
    headers.traceparent = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
    expect((await send(handler, '/mcp', { method: 'POST', headers, body: JSON.stringify(framed) })).status).toBe(200);
    const server = spans.getFinishedSpans().find((span) => span.name === 'POST /mcp')!;
    const message = spans.getFinishedSpans().find((span) => span.name === 'tools/call list_start_options')!;
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(message.spanContext().traceId).toBe(host.traceId);
    expect(message.parentSpanContext?.spanId).toBe(host.spanId);
    expect(message.links.map((link) => link.context.spanId)).toEqual([server.spanContext().spanId]);
  });

  it('keeps the request as the parent when params._meta carries no valid trace context', async () => {
    const handler = await makeHandler({ telemetry: { tracerProvider } });
    const { headers, body } = frame('modern', 'tools/list');
    const framed = JSON.parse(body);
    framed.params._meta.traceparent = 'not-a-traceparent';
    await send(handler, '/mcp', { method: 'POST', headers, body: JSON.stringify(framed) });
    const server = spans.getFinishedSpans().find((span) => span.name === 'POST /mcp')!;
    const message = spans.getFinishedSpans().find((span) => span.name === 'tools/list')!;
    expect(message.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(message.links).toEqual([]);
  });

  it('marks a tool result with isError as tool_error, and a JSON-RPC error with its code', async () => {
    const handler = await makeHandler({ telemetry: { tracerProvider, meterProvider } });
    const unknownId = frame('modern', 'tools/call', { name: 'fetch', arguments: { id: 'no-such-document' } });
    const toolResult = await send(handler, '/mcp', { method: 'POST', ...unknownId });
    expect((await toolResult.json()).result.isError).toBe(true);
    const unknownPrompt = frame('legacy', 'prompts/get', { name: 'no_such_prompt' });
    const rpcError = await (await send(handler, '/mcp', { method: 'POST', ...unknownPrompt })).json();
    const code = String(rpcError.error.code);

    const fetchSpan = spans.getFinishedSpans().find((span) => span.name === 'tools/call fetch')!;
    expect(fetchSpan.attributes['error.type']).toBe('tool_error');
    expect(fetchSpan.attributes).not.toHaveProperty('rpc.response.status_code');
    expect(fetchSpan.status.code).toBe(SpanStatusCode.ERROR);
    const promptSpan = spans.getFinishedSpans().find((span) => span.name === 'prompts/get')!;
    expect(promptSpan.attributes).toMatchObject({ 'rpc.response.status_code': code, 'error.type': code });
    expect(promptSpan.status.code).toBe(SpanStatusCode.ERROR);
    const points = await reader.points('mcp.server.operation.duration');
    expect(points.map((point) => point.attributes['error.type']).sort()).toEqual([code, 'tool_error'].sort());
  });

  it('leaves a successful message unmarked', async () => {
    const handler = await makeHandler({ telemetry: { tracerProvider } });
    await send(handler, '/mcp', { method: 'POST', ...frame('legacy', 'tools/call', { name: 'list_start_options', arguments: {} }) });
    const message = spans.getFinishedSpans().find((span) => span.name === 'tools/call list_start_options')!;
    expect(message.attributes).not.toHaveProperty('error.type');
    expect(message.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('adds Server-Timing only when asked', async () => {
    const timed = await makeHandler({ telemetry: { serverTiming: true } });
    expect((await send(timed, '/api/v1')).headers.get('server-timing')).toMatch(
      /^total;dur=\d+\.\d\d, ratelimit;desc="rate-limit store";dur=\d+\.\d\d$/,
    );
    const plain = await makeHandler();
    expect((await send(plain, '/api/v1')).headers.get('server-timing')).toBeNull();
  });
});
