/** @module The rate-limit header fields: IETF RateLimit (draft-ietf-httpapi-ratelimit-headers, -08 to -11) and their X- forms. */
import type { HeaderRecord } from '../headers.ts';
import type { RateLimitState } from './limiter.ts';

/** RateLimit-Policy: an RFC 9651 List with the one `default` policy. */
export function policyField(quota: number, windowSeconds: number): string {
  return `"default";q=${quota};w=${windowSeconds}`;
}

export function rateLimitFields(policy: string, state: RateLimitState): HeaderRecord {
  return {
    'RateLimit-Policy': policy,
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
    'X-RateLimit-Limit': String(state.quota),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetEpoch),
  };
}
