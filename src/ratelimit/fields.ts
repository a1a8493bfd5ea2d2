/**
 * @module The rate-limit header fields: IETF RateLimit (draft-ietf-httpapi-ratelimit-headers, the
 * syntax of -08 to -11: RFC 9651 Lists of one policy item with `q`, `w`, `r` and `t`) and their X- forms.
 * The draft may still rename its parameters: they are written here only.
 */
import type { HeaderRecord } from '../http/headers.ts';
import type { RateLimitState } from './limiter.ts';

/**
 * The fields fixed by a policy: RateLimit-Policy, naming it with its quota and window, and the quota.
 * While the store is down and this instance counts alone (fail open), the quota is its share of the
 * policy's: the fields stay true to what this instance enforces.
 */
export function policyFields(name: string, quota: number, windowSeconds: number): HeaderRecord {
  return { 'RateLimit-Policy': `"${name}";q=${quota};w=${windowSeconds}`, 'X-RateLimit-Limit': String(quota) };
}

/** The fields that change with each request: what remains of the policy's quota and when its window resets. */
export function stateFields(state: RateLimitState): HeaderRecord {
  return {
    RateLimit: `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetEpoch),
  };
}
