import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { problemResponder, problemType } from '../src/problems.ts';
import { Problem, PROBLEM_CODES, ProblemType } from '../src/schemas.ts';

const BASE = 'https://api.example.com';
const respond = problemResponder(BASE);
const request = (method = 'GET') => new Request(`${BASE}/x`, { method });

describe('problemResponder (RFC 9457)', () => {
  it.each(PROBLEM_CODES)('answers %s with a valid problem body, its status and no-store', async (code) => {
    const response = respond(request(), code, { 'X-Content-Type-Options': 'nosniff' }, { RateLimit: 'r' });
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('ratelimit')).toBe('r');
    const text = await response.text();
    expect(response.headers.get('content-length')).toBe(String(new TextEncoder().encode(text).byteLength));
    const body = v.parse(Problem, JSON.parse(text));
    expect(body).toMatchObject({ type: `${BASE}/problems/${code}`, code, status: response.status });
    expect(body.resolution).not.toContain('{base}');
  });

  it('adds per-request members without changing the fixed ones', async () => {
    const response = respond(request(), 'rate_limited', {}, {}, { 'violated-policies': ['default'], instance: 'urn:uuid:1' });
    const body = await response.json();
    expect(response.status).toBe(429);
    expect(body['violated-policies']).toEqual(['default']);
    expect(body.instance).toBe('urn:uuid:1');
    expect((await respond(request(), 'rate_limited', {}, {}).json()).instance).toBeUndefined();
  });

  it('answers HEAD with no body and the GET length', async () => {
    const get = respond(request(), 'api_route_not_found', {}, {});
    const head = respond(request('HEAD'), 'api_route_not_found', {}, {});
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });
});

describe('problemType', () => {
  it.each(PROBLEM_CODES)('describes %s under its own type URI', (code) => {
    const type = v.parse(ProblemType, problemType(BASE, code));
    expect(type.type).toBe(`${BASE}/problems/${code}`);
    expect(type.status).toBe(respond(request(), code, {}, {}).status);
  });
});
