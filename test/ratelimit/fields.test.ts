import { parseList } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { policyFields, stateFields } from '../../src/ratelimit/fields.ts';

describe('policyFields and stateFields', () => {
  it('writes the IETF fields as structured-field Lists and the X- forms as integers', () => {
    const headers = {
      ...policyFields('default', 120, 60),
      ...stateFields({
        policy: 'default',
        quota: 120,
        remaining: 117,
        resetSeconds: 42,
        resetEpoch: 1_795_046_400,
        exceeded: false,
        unavailable: false,
      }),
    };
    const [policy] = parseList(headers['RateLimit-Policy']!);
    expect(policy![0]).toBe('default');
    expect(Object.fromEntries(policy![1])).toEqual({ q: 120, w: 60 });
    const [limit] = parseList(headers.RateLimit!);
    expect(limit![0]).toBe('default');
    expect(Object.fromEntries(limit![1])).toEqual({ r: 117, t: 42 });
    expect(headers['X-RateLimit-Limit']).toBe('120');
    expect(headers['X-RateLimit-Remaining']).toBe('117');
    expect(headers['X-RateLimit-Reset']).toBe('1795046400');
  });

  it('names the policy counted under in both IETF fields', () => {
    const [policy] = parseList(policyFields('agents', 1200, 60)['RateLimit-Policy']!);
    expect(policy![0]).toBe('agents');
    expect(Object.fromEntries(policy![1])).toEqual({ q: 1200, w: 60 });
    const state = { policy: 'agents', quota: 1200, remaining: 3, resetSeconds: 9, resetEpoch: 1, exceeded: false, unavailable: false };
    expect(parseList(stateFields(state).RateLimit!)[0]![0]).toBe('agents');
  });
});
