/**
 * @module OpenTelemetry's side of an observation, through `@opentelemetry/api` alone (loaded only
 * while a provider is given): the spans and metrics of the HTTP semantic conventions, the MCP ones
 * (`mcp.method.name`, `gen_ai.tool.name`, `mcp.protocol.version`, `rpc.response.status_code`,
 * `error.type`; a message's span parented by the trace context in its `params._meta`) and the service's own. No client
 * address, query string or body goes into a span; every metric attribute comes from a closed list
 * (methods, routes, statuses, agent classes and names, policies, tools, revisions), so nothing a
 * caller sends creates a series.
 */
import {
  context,
  type Context,
  isSpanContextValid,
  type Link,
  type Meter,
  type MeterProvider,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Agent } from '../agents/table.ts';
import { pathOf } from '../http/prepared.ts';
import { toResponse, type Answered } from '../http/answer.ts';
import { metaCarrier, outcomeOf } from './mcp-outcome.ts';
import { TOOL_NAMES } from '../mcp/tools.ts';
import { MCP_METHODS, MCP_PROTOCOL_VERSIONS } from '../mcp/versions.ts';
import pkg from '../../package.json' with { type: 'json' };

const SCOPE = 'product-discovery-api';
const DAY_MS = 86_400_000;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT']);
const MCP_METHOD_NAMES = new Set(MCP_METHODS);
/** HTTP semantic conventions: a method outside the known ones is `_OTHER`. */
const OTHER = '_OTHER';
// The HTTP semantic conventions' advised buckets for http.server.request.duration, in seconds.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** A store call, in seconds: a local Redis answers in well under a millisecond, a store's deadline is 1 s. */
export const STORE_DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};
const recordGetter = {
  keys: (carrier: Record<string, string>) => Object.keys(carrier),
  get: (carrier: Record<string, string>, key: string) => carrier[key],
};

export interface InstrumentsOptions {
  tracerProvider?: unknown;
  meterProvider?: unknown;
  /** The rate-limit store's kind (`db.system.name` of its spans). */
  storeKind: string;
  /** The facts' review date, as served now (reloads change it). */
  reviewedOn: () => string;
}

export type Instruments = ReturnType<typeof createInstruments>;

export function createInstruments({ tracerProvider, meterProvider, storeKind, reviewedOn }: InstrumentsOptions) {
  const tracer: Tracer | undefined = (tracerProvider as TracerProvider | undefined)?.getTracer(SCOPE, pkg.version);
  const meter: Meter | undefined = (meterProvider as MeterProvider | undefined)?.getMeter(SCOPE, pkg.version);
  const tools = new Set(TOOL_NAMES);
  const revisions = new Set(MCP_PROTOCOL_VERSIONS);
  // A server span the runtime or the app already started (Deno.serve's under OTEL_DENO, an app's own
  // HTTP instrumentation) is the parent; else the caller's traceparent, read with the W3C propagator
  // even when the provider was set up without one (propagation.fields() is empty).
  const w3c = new W3CTraceContextPropagator();
  const extract = <C>(carrier: C, getter: { keys(carrier: C): string[]; get(carrier: C, key: string): string | undefined }) =>
    propagation.fields().length > 0 ? propagation.extract(ROOT_CONTEXT, carrier, getter) : w3c.extract(ROOT_CONTEXT, carrier, getter);
  const parentOf = (headers: Headers): Context => {
    const active = context.active();
    if (trace.getSpan(active)) return active;
    return extract(headers, headerGetter);
  };
  /**
   * An MCP message's parent: the trace context its host sent in `params._meta` (MCP semantic
   * conventions), linked to the HTTP request's span; else the HTTP request's span.
   */
  const messageParentOf = (message: unknown, inside: Context): { parent: Context; links: Link[] } => {
    const carrier = metaCarrier(message);
    const carried = carrier && extract(carrier, recordGetter);
    const spanContext = carried && trace.getSpanContext(carried);
    if (!spanContext || !isSpanContextValid(spanContext)) return { parent: inside, links: [] };
    const http = trace.getSpanContext(inside);
    return { parent: carried, links: http ? [{ context: http }] : [] };
  };

  const requestDuration = meter?.createHistogram('http.server.request.duration', {
    unit: 's',
    description: 'Duration of HTTP server requests.',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const refusals = meter?.createCounter('ratelimit.refusals', {
    description: 'Requests refused by the rate limit: 429 over quota, 503 failing closed.',
  });
  const storeDuration = meter?.createHistogram('ratelimit.store.duration', {
    unit: 's',
    description: 'Duration of rate-limit store calls.',
    advice: { explicitBucketBoundaries: STORE_DURATION_BUCKETS },
  });
  const storeErrors = meter?.createCounter('ratelimit.store.errors', { description: 'Rate-limit store calls that failed.' });
  const mcpDuration = meter?.createHistogram('mcp.server.operation.duration', {
    unit: 's',
    description: 'Duration of MCP messages, by method and tool.',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  meter
    ?.createObservableGauge('facts.age', { unit: 'd', description: 'Days since the served facts were reviewed.' })
    .addCallback((result) => result.observe((Date.now() - Date.parse(reviewedOn())) / DAY_MS));

  // A verified agent's origin is one a policy names: a closed list, as the classes and names are.
  const agentAttributes = ({ agentClass, agentName, verified }: Agent) => ({
    'agent.class': agentClass,
    ...(agentName && { 'agent.name': agentName }),
    ...(verified && { 'agent.verified': verified }),
  });

  return {
    request(request: Request, agentOf: () => Agent) {
      const method = METHODS.has(request.method) ? request.method : OTHER;
      const parent = parentOf(request.headers);
      const span: Span | undefined = tracer?.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': method,
            'url.path': pathOf(request.url),
            'url.scheme': request.url.slice(0, request.url.indexOf(':')),
            'user_agent.original': request.headers.get('user-agent') ?? undefined,
          },
        },
        parent,
      );
      const inside = span ? trace.setSpan(parent, span) : parent;
      let route: string | undefined;

      return {
        matched(path: string | undefined) {
          route = path;
          if (!span || path === undefined) return;
          span.updateName(`${method} ${path}`);
          span.setAttribute('http.route', path);
        },
        storeCall() {
          const child = tracer?.startSpan(
            `ratelimit ${storeKind}`,
            { kind: SpanKind.CLIENT, attributes: { 'db.system.name': storeKind } },
            inside,
          );
          return {
            end(seconds: number, failed: boolean) {
              const attributes = failed
                ? { 'db.system.name': storeKind, 'error.type': 'store_unreachable' }
                : { 'db.system.name': storeKind };
              storeDuration?.record(seconds, attributes);
              if (failed) storeErrors?.add(1, { 'db.system.name': storeKind });
              if (failed) child?.setStatus({ code: SpanStatusCode.ERROR, message: 'rate-limit store unreachable' });
              child?.end();
            },
          };
        },
        refused(policy: string, code: string) {
          refusals?.add(1, { 'ratelimit.policy': policy, 'ratelimit.refusal': code });
        },
        async mcpMessage(message: unknown, protocolVersion: string | undefined, answer: () => Promise<Answered>): Promise<Answered> {
          const {
            method: mcpMethod,
            params,
            id,
          } = (message ?? {}) as { method?: unknown; params?: { name?: unknown; protocolVersion?: unknown }; id?: unknown };
          const methodName = typeof mcpMethod === 'string' && MCP_METHOD_NAMES.has(mcpMethod) ? mcpMethod : OTHER;
          const tool = methodName === 'tools/call' ? (tools.has(params?.name as string) ? (params!.name as string) : OTHER) : undefined;
          const version = [protocolVersion, params?.protocolVersion].find((value) => revisions.has(value as string)) as string | undefined;
          const attributes = {
            'mcp.method.name': methodName,
            ...(tool && { 'gen_ai.tool.name': tool, 'gen_ai.operation.name': 'execute_tool' }),
            ...(version && { 'mcp.protocol.version': version }),
          };
          const started = performance.now();
          const { parent, links } = messageParentOf(message, inside);
          const child = tracer?.startSpan(
            tool ? `${methodName} ${tool}` : methodName,
            {
              kind: SpanKind.SERVER,
              attributes: {
                ...attributes,
                ...((typeof id === 'string' || typeof id === 'number') && { 'jsonrpc.request.id': String(id) }),
              },
              links,
            },
            parent,
          );
          let errorType: string | undefined;
          // The JSON-RPC error code, as the conventions write it (a string).
          let statusCode: string | undefined;
          try {
            const response = await answer();
            const { errorCode, toolError } = await outcomeOf(toResponse(response));
            if (errorCode !== undefined) statusCode = errorType = String(errorCode);
            else if (toolError) errorType = 'tool_error';
            else if (response.status >= 400) errorType = String(response.status);
            return response;
          } catch (error) {
            errorType = (error as Error).name ?? 'Error';
            throw error;
          } finally {
            if (statusCode) child?.setAttribute('rpc.response.status_code', statusCode);
            if (errorType) child?.setAttribute('error.type', errorType);
            if (errorType) child?.setStatus({ code: SpanStatusCode.ERROR });
            child?.end();
            const outcome = {
              ...attributes,
              ...(statusCode && { 'rpc.response.status_code': statusCode }),
              ...(errorType && { 'error.type': errorType }),
            };
            mcpDuration?.record((performance.now() - started) / 1000, outcome);
          }
        },
        end(status: number, seconds: number) {
          const agent = agentAttributes(agentOf());
          requestDuration?.record(seconds, {
            'http.request.method': method,
            ...(route !== undefined && { 'http.route': route }),
            'http.response.status_code': status,
            ...agent,
          });
          if (!span) return;
          span.setAttributes({ 'http.response.status_code': status, ...agent });
          // HTTP semantic conventions: a server span is an error for a 5xx only.
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
  };
}
