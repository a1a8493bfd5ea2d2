/**
 * @module What an operator sees of each request beyond the access log: OpenTelemetry spans and
 * metrics while a tracer or meter provider is given (otel.ts, loaded only then), and a
 * `Server-Timing` header while SERVER_TIMING is on. With neither, `observe` hands out one shared
 * observation that only passes calls through, and nothing of OpenTelemetry is ever loaded.
 */
import { Answer, type Answered } from '../http/answer.ts';
import { mcpAgentOf, type Agent } from '../agents/table.ts';
import type { McpMessageHook } from '../mcp/endpoint.ts';
import type { Instruments } from './otel.ts';

export interface TelemetryOptions {
  /** An `@opentelemetry/api` TracerProvider: a server span per request, children for the store and each MCP message. */
  tracerProvider?: unknown;
  /** An `@opentelemetry/api` MeterProvider: request durations, refusals, store latency and errors, MCP operations, the facts' age. */
  meterProvider?: unknown;
  /** Adds `Server-Timing` (total, rate-limit store) to every answer, for debugging. */
  serverTiming?: boolean;
}

/** One request as the operator sees it. */
export interface Observation extends McpMessageHook {
  /** Who sent it (User-Agent; on /mcp, the declared client too). */
  readonly agent: Agent;
  /** The Web Bot Auth signature verified for this agent origin (one a policy names). */
  verified(origin: string): void;
  /** The route table's path the request matched; undefined for a path not served. */
  matched(route: string | undefined): void;
  /** The rate limit's verdict, timed as the store call it is; `failing` tells whether the store failed. */
  store<T>(check: () => T | Promise<T>, failing: () => boolean): T | Promise<T>;
  /** A 429 or a fail-closed 503, under a policy. */
  refused(policy: string, code: 'rate_limited' | 'service_unavailable'): void;
  /** The answer is ready: the span ends, the duration is recorded, `Server-Timing` added. */
  end(answered: Answered): Answered;
}

export interface Telemetry {
  observe(request: Request): Observation;
}

/** How a `User-Agent` is classified (user-agent.ts's `agentOf`, loaded only when someone reads the class). */
type Classify = (userAgent: string | null) => Agent;
const unclassified: Classify = () => ({ agentClass: 'other' });

/** The agent is classified when read (by the access log or OpenTelemetry), never on a request nobody observes. */
class PassThrough implements Observation {
  readonly #request: Request;
  readonly #classify: Classify;
  #agent: Agent | undefined;
  /** On /mcp: the client's declared name, once a message was read. */
  #mcp: { declared: unknown } | undefined;
  #verified: string | undefined;
  constructor(request: Request, classify: Classify) {
    this.#request = request;
    this.#classify = classify;
  }
  get agent(): Agent {
    if (this.#agent) return this.#agent;
    const classified = this.#classify(this.#request.headers.get('user-agent'));
    const agent = this.#mcp ? mcpAgentOf(classified, this.#mcp.declared) : classified;
    return (this.#agent = this.#verified ? { ...agent, verified: this.#verified } : agent);
  }
  verified(origin: string): void {
    this.#verified = origin;
    this.#agent = undefined;
  }
  matched(_route: string | undefined): void {}
  store<T>(check: () => T | Promise<T>, _failing: () => boolean): T | Promise<T> {
    return check();
  }
  refused(_policy: string, _code: 'rate_limited' | 'service_unavailable'): void {}
  mcpMessage(message: unknown, _version: string | undefined, answer: () => Promise<Answered>): Promise<Answered> {
    this.#mcp = { declared: this.#mcp?.declared ?? declaredClientName(message) };
    this.#agent = undefined;
    return answer();
  }
  end(answered: Answered): Answered {
    return answered;
  }
}

/** Times the request and its store call for `Server-Timing`, and feeds OpenTelemetry when on. */
class Observed extends PassThrough {
  readonly #started = performance.now();
  readonly #serverTiming: boolean;
  readonly #otel: ReturnType<Instruments['request']> | undefined;
  #storeMs: number | undefined;

  constructor(request: Request, classify: Classify, serverTiming: boolean, instruments: Instruments | undefined) {
    super(request, classify);
    this.#serverTiming = serverTiming;
    this.#otel = instruments?.request(request, () => this.agent);
  }
  override matched(route: string | undefined): void {
    this.#otel?.matched(route);
  }
  override store<T>(check: () => T | Promise<T>, failing: () => boolean): T | Promise<T> {
    const started = performance.now();
    const span = this.#otel?.storeCall();
    const done = () => {
      this.#storeMs = performance.now() - started;
      span?.end(this.#storeMs / 1000, failing());
    };
    const result = check();
    if (!(result instanceof Promise)) {
      done();
      return result;
    }
    return result.finally(done) as T | Promise<T>;
  }
  override refused(policy: string, code: 'rate_limited' | 'service_unavailable'): void {
    this.#otel?.refused(policy, code);
  }
  override mcpMessage(message: unknown, protocolVersion: string | undefined, answer: () => Promise<Answered>): Promise<Answered> {
    const otel = this.#otel;
    if (!otel) return super.mcpMessage(message, protocolVersion, answer);
    return otel.mcpMessage(message, protocolVersion, () => super.mcpMessage(message, protocolVersion, answer));
  }
  override end(answered: Answered): Answered {
    const totalMs = performance.now() - this.#started;
    this.#otel?.end(answered.status, totalMs / 1000);
    if (this.#serverTiming) {
      // W3C Server Timing: durations in milliseconds.
      const store = this.#storeMs === undefined ? '' : `, ratelimit;desc="rate-limit store";dur=${this.#storeMs.toFixed(2)}`;
      const timing = `total;dur=${totalMs.toFixed(2)}${store}`;
      if (answered instanceof Answer) answered.set('Server-Timing', timing);
      else answered.headers.set('Server-Timing', timing);
    }
    return answered;
  }
}

/** The name an MCP client declares: in `initialize` (2025 revisions) or in every request's `_meta` (2026-07-28). */
export function declaredClientName(message: unknown): unknown {
  const params = (
    message as { params?: { clientInfo?: { name?: unknown }; _meta?: Record<string, { name?: unknown } | undefined> } } | null
  )?.params;
  return params?.clientInfo?.name ?? params?._meta?.['io.modelcontextprotocol/clientInfo']?.name;
}

/** Loads OpenTelemetry's side only when a provider is given. */
export async function createTelemetry(
  options: TelemetryOptions,
  {
    accessLog,
    ...context
  }: { storeKind: string; reviewedOn: () => string /** The access log names each request's agent. */; accessLog: boolean },
): Promise<Telemetry> {
  const { tracerProvider, meterProvider, serverTiming = false } = options;
  const instruments =
    tracerProvider || meterProvider
      ? (await import('./otel.ts')).createInstruments({ tracerProvider, meterProvider, ...context })
      : undefined;
  const classify = instruments || accessLog ? (await import('../agents/classify.ts')).agentOf : unclassified;
  if (!instruments && !serverTiming) return { observe: (request) => new PassThrough(request, classify) };
  return { observe: (request) => new Observed(request, classify, serverTiming, instruments) };
}
