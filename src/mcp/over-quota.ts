/**
 * @module Over quota on /mcp, answered the way MCP gateways answer it when MCP_RATE_LIMIT_ANSWER is
 * `jsonrpc`: HTTP 200 with the rate-limit headers and Retry-After, and for each request a JSON-RPC
 * error carrying its id, the code RATE_LIMITED_CODE and `data: { retryAfter, policy }`; a
 * `tools/call` gets a tool result with `isError: true` whose text says the wait, for hosts that show
 * a tool's error to the model but not a protocol error. A body with no request to answer (not JSON,
 * only notifications, a batch its revision does not have) keeps the 429 problem.
 */
import { exceededDetail } from '../contract/problems.ts';
import { NO_STORE, type HeaderRecord } from '../http/headers.ts';
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';
import { revisionOf } from './batch.ts';
import { vet, type McpOptions } from './gate.ts';
import { BATCH_REVISION, MODERN_REVISION } from './versions.ts';

/** `http`: the 429 problem (the default); `jsonrpc`: HTTP 200 with a JSON-RPC answer per request. */
export const RATE_LIMIT_ANSWERS = ['http', 'jsonrpc'] as const;
export type RateLimitAnswer = (typeof RATE_LIMIT_ANSWERS)[number];
/** The rule's words, on every way in (MCP_RATE_LIMIT_ANSWER, `mcp.rateLimitAnswer`). */
export const RATE_LIMIT_ANSWER_RULE = 'must be "http" (the 429 problem) or "jsonrpc" (HTTP 200 with a JSON-RPC answer)';

/** The JSON-RPC error code of an over-quota request, in the implementation-defined server-error range (-32099..-32000). */
export const RATE_LIMITED_CODE = -32029;

/** The createHandler option, checked as MCP_RATE_LIMIT_ANSWER is: anything else is refused naming the option and the choices. */
export function checkRateLimitAnswer(value: unknown): RateLimitAnswer {
  if (value === undefined) return 'http';
  if ((RATE_LIMIT_ANSWERS as readonly unknown[]).includes(value)) return value as RateLimitAnswer;
  throw invalidConfiguration(settingLine('mcp.rateLimitAnswer', value, RATE_LIMIT_ANSWER_RULE));
}

/** How long to wait, and the policy whose quota is used up. */
export interface Wait {
  retryAfter: number;
  policy: string;
}

type Id = string | number;
interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { _meta?: Record<string, unknown> };
}

const requestOf = (message: unknown): { id: Id; method: string; revision: unknown } | undefined => {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method, params } = message as Message;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  return { id, method, revision: params?._meta?.['io.modelcontextprotocol/protocolVersion'] };
};

/**
 * The answer to one message over quota (under `revision`, the request's MCP-Protocol-Version); undefined
 * for a notification, a response or anything else without an id.
 */
function overQuotaMessage(message: unknown, { retryAfter, policy }: Wait, revision?: string): Record<string, unknown> | undefined {
  const request = requestOf(message);
  if (!request) return undefined;
  const text = exceededDetail(retryAfter);
  if (request.method === 'tools/call') {
    // 2026-07-28 results say they are complete (`resultType`); the 2025 revisions have no such member.
    const modern = (request.revision ?? revision) === MODERN_REVISION;
    const result = { content: [{ type: 'text', text }], isError: true, ...(modern ? { resultType: 'complete' } : {}) };
    return { jsonrpc: '2.0', id: request.id, result };
  }
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: { code: RATE_LIMITED_CODE, message: `Rate limited: ${text}`, data: { retryAfter, policy } },
  };
}

/** The body answering a parsed request body: one message, or a batch where its revision has batches (batch.ts). */
export function overQuotaBody(revision: string, body: unknown, wait: Wait): unknown {
  if (!Array.isArray(body)) return overQuotaMessage(body, wait, revision);
  if (revision !== BATCH_REVISION) return undefined;
  const answers = body.map((message) => overQuotaMessage(message, wait, revision)).filter((answer) => answer !== undefined);
  return answers.length > 0 ? answers : undefined;
}

/**
 * The HTTP 200 answer to an over-quota POST to /mcp, with `headers` (the endpoint's and the rate
 * limit's, Retry-After included); undefined when the request earns the problem instead: refused by
 * the endpoint's HTTP rules (gate.ts) or holding no request to answer.
 */
export async function answerOverQuota(
  request: Request,
  options: Pick<McpOptions, 'allowedOrigins' | 'maxBodyBytes'>,
  wait: Wait,
  headers: HeaderRecord,
): Promise<Response | undefined> {
  const vetted = await vet(request, options);
  if ('refused' in vetted) return undefined;
  const answer = overQuotaBody(revisionOf(request), vetted.body, wait);
  if (answer === undefined) return undefined;
  // Refused like a 429, so never kept by a cache.
  const fields = { ...headers, 'Content-Type': 'application/json', 'Cache-Control': NO_STORE };
  return new Response(JSON.stringify(answer), { status: 200, headers: fields });
}
