/** The rate-limit fields of one answer as verify reads them: coherence, and a 429 a cache stored. */
import { describe, expect, it } from 'vitest';
import { incoherence, missingFields, staleness } from '../../src/verify/ratelimit.ts';
import type { Answer } from '../../src/verify/session.ts';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

function answer(fields: Record<string, string>, status = 200, receivedAt = NOW, sentAt = receivedAt): Answer {
  return { method: 'GET', path: '/api/v1', status, headers: new Headers(fields), body: '', sentAt, receivedAt, mcp: false };
}

const coherent = (changes: Record<string, string> = {}) =>
  answer({
    'RateLimit-Policy': '"default";q=120;w=60',
    RateLimit: '"default";r=117;t=42',
    'X-RateLimit-Limit': '120',
    'X-RateLimit-Remaining': '117',
    'X-RateLimit-Reset': String(NOW / 1000 + 42),
    Date: new Date(NOW).toUTCString(),
    ...changes,
  });

describe('incoherence', () => {
  it('allows for the time an answer took: counted when it arrived, dated when it left', () => {
    // Counted at NOW with 42 s left, sent 5 s later: Date says NOW + 5 s.
    const slow = { ...coherent({ Date: new Date(NOW + 5000).toUTCString() }), sentAt: NOW, receivedAt: NOW + 5000 };
    expect(incoherence(slow)).toBeUndefined();
    const quick = { ...slow, sentAt: NOW + 4900 };
    expect(incoherence(quick)).toContain("is not the answer's time plus RateLimit t=42");
  });

  it('accepts five fields that agree, the reset read from Date (so a stored answer within its max-age agrees too)', () => {
    expect(incoherence(coherent())).toBeUndefined();
    const cachedAnswer = { ...coherent(), receivedAt: NOW + 50_000 };
    expect(incoherence(cachedAnswer)).toBeUndefined();
  });

  it.each([
    [{ 'X-RateLimit-Limit': '100' }, 'X-RateLimit-Limit 100 is not RateLimit-Policy q=120'],
    [{ 'X-RateLimit-Remaining': '116' }, 'X-RateLimit-Remaining 116 is not RateLimit r=117'],
    [{ RateLimit: '"agents";r=117;t=42' }, 'RateLimit names "agents", which RateLimit-Policy does not'],
    [{ RateLimit: '"default";t=42' }, 'RateLimit has no whole r'],
    [{ RateLimit: 'r=117, t=42' }, 'RateLimit is not a structured-field List'],
    [{ 'RateLimit-Policy': '"default";q=120;w=60;;' }, 'RateLimit-Policy is not a structured-field List'],
    [{ 'X-RateLimit-Reset': String(NOW / 1000 + 600) }, "is not the answer's time plus RateLimit t=42"],
    [{ RateLimit: '"default";r=117;t=90' }, 'RateLimit t=90 is longer than the window w=60'],
  ])('names what disagrees: %o', (changes, reason) => {
    expect(incoherence(coherent(changes))).toContain(reason);
  });

  it('lists the fields an answer lacks', () => {
    const { headers } = coherent();
    headers.delete('RateLimit');
    expect(missingFields({ ...coherent(), headers })).toEqual(['RateLimit']);
  });
});

describe('staleness of a 429', () => {
  const limited = (reset: number, extra: Record<string, string> = {}) =>
    answer({ 'X-RateLimit-Reset': String(reset), 'Retry-After': '30', ...extra }, 429);

  it('is none for a 429 whose window is still running', () => {
    expect(staleness(limited(NOW / 1000 + 30))).toBeUndefined();
  });

  it('is an Age, or a window that ended before the answer arrived', () => {
    expect(staleness(limited(NOW / 1000 + 30, { Age: '12' }))).toBe('it carries Age: 12');
    expect(staleness(limited(NOW / 1000 - 10))).toBe(`its window had ended 10 s before it arrived (X-RateLimit-Reset ${NOW / 1000 - 10})`);
  });
});
