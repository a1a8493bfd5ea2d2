/** Builds handlers in-process around the shipped sample facts, and sends them requests. */
import { checkFacts } from '../../src/facts/check.ts';
import { pathHeaders } from '../../src/http/headers.ts';
import { MCP_PATH } from '../../src/route.ts';
import { ROUTES } from '../../src/routes.ts';
import { createHandler, type Handler, type HandlerOptions, type RequestInfo } from '../../src/handler.ts';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };
import type { LogEntry } from '../../src/util/log.ts';

/** A logger that keeps every entry, for a test to read: all of them, or those of one event. */
export function collector() {
  const lines: LogEntry[] = [];
  return {
    lines,
    logger: (entry: LogEntry) => void lines.push(entry),
    events: (event: string) => lines.filter((line) => line.event === event),
  };
}

export const BASE = 'https://api.example.com';

/** The fixed headers the service gives /mcp answers, as the handler builds them. */
export const MCP_HEADERS = pathHeaders(
  {
    base: BASE,
    docsPage: true,
    contentSignal: 'search=yes, ai-input=yes',
    rateLimitPolicy: { 'RateLimit-Policy': '"default";q=120;w=60', 'X-RateLimit-Limit': '120' },
  },
  MCP_PATH,
  ROUTES.find((route) => route.path === MCP_PATH),
);

export function sampleFacts() {
  return checkFacts('sample', structuredClone(sample));
}

const open = new Set<Handler>();

/**
 * A handler over the sample facts, with a quota no test reaches unless `rateLimit` is given
 * (`rateLimit: {}` for the defaults). Closed by closeHandlers().
 */
export async function makeHandler(options: Partial<HandlerOptions> = {}): Promise<Handler> {
  const handler = await createHandler({ publicBaseUrl: BASE, facts: sampleFacts(), rateLimit: { quota: 1_000_000 }, ...options });
  open.add(handler);
  return handler;
}

export async function closeHandlers(): Promise<void> {
  const handlers = [...open];
  open.clear();
  await Promise.all(handlers.map((handler) => handler.close()));
}

export function get(path: string, init: RequestInit = {}): Request {
  return new Request(`${BASE}${path}`, init);
}

/** Sends `method path` to the handler, as from `address` (null: no address known). */
export function send(
  handler: Handler,
  path: string,
  {
    method = 'GET',
    headers = {},
    address = '203.0.113.1',
    body,
  }: { method?: string; headers?: Record<string, string>; address?: string | null; body?: string } = {},
): Promise<Response> {
  const info: RequestInfo | undefined = address === null ? undefined : { clientAddress: address };
  return handler(get(path, { method, headers, body }), info);
}
