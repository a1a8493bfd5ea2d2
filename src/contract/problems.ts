/**
 * @module The problem catalog of the contract: each code's status, title, description, detail and
 * resolution, and the RFC 9457 bodies and problem types made from them. Preparing a problem answer
 * is http/problem.ts's.
 */
import type { Problem, ProblemCode, ProblemType } from './schemas.ts';

/** Where a problem type is documented: `{base}/problems/{code}`, its `type` URI. */
export const problemPath = (code: string) => `/problems/${code}`;

interface ProblemDefinition {
  status: number;
  title: string;
  description: string;
  detail: string;
  resolution: string;
}

const DEFINITIONS: Record<ProblemCode, ProblemDefinition> = {
  bad_request: {
    status: 400,
    title: 'Bad request',
    description: 'The request could not be read as an HTTP request this service takes.',
    detail: 'The request is malformed.',
    resolution: 'Send a well-formed HTTP request; detail says what was wrong with this one.',
  },
  api_route_not_found: {
    status: 404,
    title: 'API route not found',
    description: 'The requested path is not served by this API.',
    detail: 'This route is not part of the public contract.',
    resolution: 'See {base}/openapi.json for every route this API serves.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but does not accept this HTTP method.',
    detail: 'This path does not accept this method.',
    resolution: 'Use one of the methods in the Allow header.',
  },
  not_acceptable: {
    status: 406,
    title: 'Not acceptable',
    description: 'The Accept header admits no media type this endpoint can answer with.',
    detail: 'The MCP endpoint answers with application/json, which the Accept header does not admit.',
    resolution: 'Send Accept: application/json, text/event-stream (or omit Accept).',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    description: 'The request body is larger than this endpoint accepts.',
    detail: 'The request body is larger than the MCP endpoint accepts.',
    resolution: 'Send one JSON-RPC message of at most the documented size.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'The request body is not in a media type this endpoint accepts.',
    detail: 'The MCP endpoint accepts only application/json request bodies.',
    resolution: 'Send the JSON-RPC message with Content-Type: application/json.',
  },
  origin_not_allowed: {
    status: 403,
    title: 'Origin not allowed',
    description: 'Browser requests to the MCP endpoint are accepted only from allowed origins.',
    detail: 'This Origin is not allowed to call the MCP endpoint.',
    resolution: 'Call the MCP endpoint from an allowed origin, or from a client that sends no Origin.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    description: 'The client used up its request quota for the current window.',
    detail: 'The request quota for this client is used up for the current window.',
    resolution: 'Wait the number of seconds in retryAfter (the Retry-After header), then try again.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description: 'The service failed to answer because of a bug on its side.',
    detail: 'The service failed to answer this request.',
    resolution: 'Try again later; if it persists, report the instance identifier to the operators.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    description: 'A dependency the service needs to answer is unavailable.',
    detail: 'A dependency needed to answer this request is unavailable.',
    resolution: 'Wait the number of seconds in Retry-After, then try again.',
  },
};

export const problemDescription = (code: ProblemCode): ProblemDefinition => DEFINITIONS[code];

const typeUri = (base: string, code: ProblemCode) => `${base}${problemPath(code)}`;

/** Members a problem may carry besides the fixed ones: they make the answer per request. */
export type ProblemMembers = Partial<Pick<Problem, 'detail' | 'instance' | 'violated-policies' | 'retryAfter'>>;

const seconds = (count: number) => `${count} second${count === 1 ? '' : 's'}`;

/** What an over-quota answer says, the wait in words, for a client (a model behind an MCP host) that sees no header. */
export const exceededDetail = (retryAfter: number) =>
  `The request quota for this client is used up for the current window; try again in ${seconds(retryAfter)}.`;

/** The members a 429 adds under `policy`: the policy (the RateLimit draft's member), the wait as a number and in its detail. */
export const exceededMembers = (policy: string, retryAfter: number): ProblemMembers => ({
  detail: exceededDetail(retryAfter),
  'violated-policies': [policy],
  retryAfter,
});

export function problemBody(base: string, code: ProblemCode, members: ProblemMembers = {}): Problem {
  const { status, title, detail, resolution } = DEFINITIONS[code];
  return { type: typeUri(base, code), title, status, code, detail, resolution: resolution.replace('{base}', base), ...members };
}

export function problemType(base: string, code: ProblemCode): ProblemType {
  const { status, title, description, resolution } = DEFINITIONS[code];
  return { type: typeUri(base, code), code, title, status, description, resolution: resolution.replace('{base}', base) };
}
