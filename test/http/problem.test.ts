/** Problem answers (RFC 9457): a catalog problem prepared with its path's headers, per-request members, HEAD. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { prepareProblem } from '../../src/http/problem.ts';
import { toResponse } from '../../src/http/answer.ts';
import { respond as answer } from '../../src/http/prepared.ts';
import { Problem } from '../../src/contract/schemas.ts';
import { PROBLEM_CODES } from '../../src/contract/problem-codes.ts';

/** The prepared answer as the fetch face sends it. */
const respond = async (...args: Parameters<typeof answer>) => toResponse(await answer(...args));

const BASE = 'https://api.example.com';
const request = (method = 'GET') => new Request(`${BASE}/x`, { method });

describe('prepareProblem (RFC 9457)', () => {
  it.each(PROBLEM_CODES)('answers %s with a valid problem body, its status and its headers', async (code) => {
    const response = await respond(
      request(),
      prepareProblem(BASE, code, { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' }),
      { RateLimit: 'r' },
    );
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
    const members = { 'violated-policies': ['default'], instance: 'urn:uuid:1' };
    const response = await respond(request(), prepareProblem(BASE, 'rate_limited', {}, members), {});
    const body = await response.json();
    expect(response.status).toBe(429);
    expect(body['violated-policies']).toEqual(['default']);
    expect(body.instance).toBe('urn:uuid:1');
    expect(body.title).toBe('Too many requests');
    expect((await (await respond(request(), prepareProblem(BASE, 'rate_limited', {}), {})).json()).instance).toBeUndefined();
  });

  it('answers HEAD with no body and the GET length', async () => {
    const prepared = prepareProblem(BASE, 'api_route_not_found', {});
    const get = await respond(request(), prepared, {});
    const head = await respond(request('HEAD'), prepared, {});
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });
});
