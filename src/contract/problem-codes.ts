/**
 * @module The problem codes the service answers with (each a problem type, `/problems/{code}`), apart
 * from their schemas (schemas.ts) so that the route table and llms.txt name them without building any.
 */
export const PROBLEM_CODES = [
  'api_route_not_found',
  'method_not_allowed',
  'not_acceptable',
  'payload_too_large',
  'unsupported_media_type',
  'origin_not_allowed',
  'rate_limited',
  'internal_error',
  'service_unavailable',
  'bad_request',
] as const;
