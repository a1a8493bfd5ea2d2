/**
 * @module The requests of one verify run: each one counted against the budget, recorded for the
 * checks that read every answer, and refused unless it only reads (GET, HEAD, OPTIONS, and POSTs
 * of MCP read methods to /mcp). The first 429 stops the run (on /mcp, also the JSON-RPC answer over quota).
 */
import pkg from '../../package.json' with { type: 'json' };
import { MCP_METHODS } from '../mcp/versions.ts';

/** Well under the default quota (120 a minute), so a run never locks out the client it runs from. */
export const MAX_REQUESTS = 60;
const TIMEOUT_MS = 10_000;
export const USER_AGENT = `product-discovery-verify/${pkg.version}`;

/** The JSON-RPC methods verify may send: the service's, all reads (tools are called only when annotated read-only). */
const MCP_READS = new Set(MCP_METHODS);

export interface Answer {
  method: string;
  /** The path under the URL checked, e.g. /api/v1. */
  path: string;
  status: number;
  headers: Headers;
  /** The decoded body; empty when none was read (HEAD, 304, MCP answers). */
  body: string;
  /** When its request was sent and when it arrived, in ms since the epoch (this machine's clock). */
  sentAt: number;
  receivedAt: number;
  /** An answer of the MCP clients' exchanges. */
  mcp: boolean;
}

/** The run stops: a 429 arrived, or the budget is spent. */
export class Stop extends Error {
  constructor(
    readonly reason: 'quota' | 'budget',
    readonly answer?: Answer,
  ) {
    super(reason === 'quota' ? 'answered 429' : `more than ${MAX_REQUESTS} requests`);
  }
}

export class Session {
  readonly answers: Answer[] = [];
  count = 0;
  stopped: Stop | undefined;

  constructor(
    /** The URL checked, without a trailing slash. */
    readonly base: string,
    /** The request budget of this run. */
    readonly limit = MAX_REQUESTS,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  remaining(): number {
    return this.limit - this.count;
  }

  /** One probe of the service: the answer, its body read as text. */
  async request(
    path: string,
    { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const response = await this.send(`${this.base}${path}`, { method, headers });
    return this.record(method, path, response, method === 'HEAD' ? '' : await response.text(), false);
  }

  /** The fetch the MCP clients use: counted, guarded and recorded like the probes. */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method === 'POST') assertMcpRead(init.body);
    const response = await this.send(url, init);
    const path = url.href.startsWith(this.base) ? url.href.slice(this.base.length) || '/' : url.pathname;
    // Errors are read for their problem body; success answers are the client's to read (SSE may not end).
    const body =
      response.status >= 400 && !/event-stream/.test(response.headers.get('content-type') ?? '') ? await response.clone().text() : '';
    this.record(method, path, response, body, true);
    return response;
  };

  /** When each response's request was sent. */
  private readonly sentAt = new WeakMap<Response, number>();

  private async send(url: string | URL, init: RequestInit): Promise<Response> {
    const method = (init.method ?? 'GET').toUpperCase();
    if (!['GET', 'HEAD', 'OPTIONS', 'POST'].includes(method)) throw new Error(`verify sends no ${method}: only reads`);
    if (this.stopped) throw this.stopped;
    if (this.count >= this.limit) throw (this.stopped = new Stop('budget'));
    this.count++;
    const headers = new Headers(init.headers);
    headers.set('user-agent', USER_AGENT);
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    const sentAt = Date.now();
    const response = await this.fetchImpl(url, {
      ...init,
      headers,
      redirect: 'manual',
      signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
    });
    this.sentAt.set(response, sentAt);
    return response;
  }

  private record(method: string, path: string, response: Response, body: string, mcp: boolean): Answer {
    const receivedAt = Date.now();
    const answer = {
      method,
      path,
      status: response.status,
      headers: response.headers,
      body,
      sentAt: this.sentAt.get(response) ?? receivedAt,
      receivedAt,
      mcp,
    };
    // Over quota: the 429, or on /mcp the 200 a deployment with MCP_RATE_LIMIT_ANSWER=jsonrpc sends instead, the one 200 with Retry-After.
    if (response.status === 429 || (mcp && response.status === 200 && response.headers.has('retry-after')))
      throw (this.stopped = new Stop('quota', answer));
    this.answers.push(answer);
    return answer;
  }
}

/** Refuses a POST that is not one MCP read. */
function assertMcpRead(body: RequestInit['body']): void {
  let method: unknown;
  try {
    method = JSON.parse(String(body)).method;
  } catch {
    // Not a JSON-RPC message: refused below.
  }
  if (typeof method !== 'string' || !MCP_READS.has(method)) throw new Error(`verify posts only MCP reads, not ${String(method)}`);
}
