/** @module The rate-limit header fields: IETF RateLimit (draft-ietf-httpapi-ratelimit-headers, -08 to -11) and their X- forms. */
import type { HeaderRecord } from '../headers.ts';
import type { RateLimitState } from './limiter.ts';

/** The fields every answer carries unchanged: RateLimit-Policy (an RFC 9651 List with the one `default` policy) and the quota. */
export function policyFields(quota: number, windowSeconds: number): HeaderRecord {
  return { 'RateLimit-Policy': `"default";q=${quota};w=${windowSeconds}`, 'X-RateLimit-Limit': String(quota) };
}

/** The fields that change with each request: what remains and when the window resets. */
export function stateFields(state: RateLimitState): HeaderRecord {
  return {
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetEpoch),
  };
}
