/**
 * An OTLP/HTTP receiver for the tests: takes what the exporters send to /v1/traces and /v1/metrics,
 * as `http/json` or `http/protobuf` (decoded with protobufjs and OpenTelemetry's own .proto files,
 * vendored in test/fixtures/otlp-proto), and keeps spans and metric data points in one shape.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { ROOT } from './entries.ts';

const PROTO_DIR = join(ROOT, 'test/fixtures/otlp-proto');

export type Attributes = Record<string, string | number | boolean | undefined>;

export interface ReceivedSpan {
  /** The instrumentation scope that made it (the service's is `product-discovery-api`). */
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Attributes;
}

export interface ReceivedPoint {
  scope: string;
  metric: string;
  attributes: Attributes;
  /** A sum's or gauge's value, or a histogram's count. */
  value: number;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
type KeyValues = { key: string; value: OtlpValue }[] | undefined;

const attributesOf = (list: KeyValues): Attributes =>
  Object.fromEntries(
    (list ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue)),
    ]),
  );

// protobuf bytes arrive base64 from toObject; OTLP JSON carries ids as hex already.
const hex = (id: string | undefined, json: boolean) => (!id ? '' : json ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex'));

export async function startOtlpReceiver() {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync([
    'opentelemetry/proto/collector/trace/v1/trace_service.proto',
    'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
  ]);
  const types = {
    '/v1/traces': root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
    '/v1/metrics': root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
  };
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const contentTypes = new Set<string>();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url?.split('?')[0] as keyof typeof types;
      const type = types[path];
      const contentType = request.headers['content-type'] ?? '';
      contentTypes.add(contentType.split(';')[0]!);
      if (!type) return void response.writeHead(404).end();
      const json = contentType.startsWith('application/json');
      const body = Buffer.concat(chunks);
      const message = json
        ? JSON.parse(body.toString('utf8'))
        : type.toObject(type.decode(body), { longs: String, bytes: String, enums: Number, defaults: false });
      if (path === '/v1/traces') collectSpans(message, json);
      else collectPoints(message);
      response.writeHead(200, { 'content-type': contentType }).end(json ? '{}' : '');
    });
  });

  type Scoped = { scope?: { name?: string } };
  function collectSpans(message: { resourceSpans?: { scopeSpans?: (Scoped & { spans?: Record<string, unknown>[] })[] }[] }, json: boolean) {
    const scoped = (message.resourceSpans ?? []).flatMap((resource) => resource.scopeSpans ?? []);
    for (const [scope, span] of scoped.flatMap((each) => (each.spans ?? []).map((span) => [each.scope?.name ?? '', span] as const))) {
      spans.push({
        scope,
        traceId: hex(span.traceId as string, json),
        spanId: hex(span.spanId as string, json),
        parentSpanId: hex(span.parentSpanId as string | undefined, json),
        name: span.name as string,
        attributes: attributesOf(span.attributes as KeyValues),
      });
    }
  }

  function collectPoints(message: { resourceMetrics?: { scopeMetrics?: (Scoped & { metrics?: Record<string, unknown>[] })[] }[] }) {
    const scoped = (message.resourceMetrics ?? []).flatMap((resource) => resource.scopeMetrics ?? []);
    for (const [scope, metric] of scoped.flatMap((each) =>
      (each.metrics ?? []).map((metric) => [each.scope?.name ?? '', metric] as const),
    )) {
      const data = (metric.sum ?? metric.gauge ?? metric.histogram) as { dataPoints?: Record<string, unknown>[] } | undefined;
      for (const point of data?.dataPoints ?? []) {
        const value = point.count ?? point.asInt ?? point.asDouble;
        points.push({
          scope,
          metric: metric.name as string,
          attributes: attributesOf(point.attributes as KeyValues),
          value: Number(value),
        });
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls until `found` returns something, up to a bound. */
export async function eventually<T>(found: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not received within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
