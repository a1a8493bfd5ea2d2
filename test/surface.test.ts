import { describe, expect, it } from 'vitest';
import { deprecationNotice } from '../src/contract/deprecation.ts';
import { buildSurface, type Settings } from '../src/surface.ts';
import { BASE, sampleFacts } from './support/handler.ts';

const settings: Settings = {
  base: BASE,
  rateLimitPolicy: { 'RateLimit-Policy': '"default";q=120;w=60', 'X-RateLimit-Limit': '120' },
  storeKind: 'memory',
  mcp: { allowedOrigins: [BASE], maxBodyBytes: 65536 },
  docsPage: true,
  contentSignal: 'search=yes, ai-input=yes',
  storeFailure: () => undefined,
};
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the surface built from the facts', () => {
  it('prepares every document of the route table once, on first use, with its path headers', async () => {
    const surface = await buildSurface(settings, sampleFacts());
    const product = surface.targetOf('/api/v1/product');
    expect(product.route?.path).toBe('/api/v1/product');
    const document = await product.document!();
    expect(JSON.parse(text(document.identity.body))).toEqual(sampleFacts());
    expect(product.document!(), 'built once, then the answer itself').toBe(document);
    expect(document.identity.headers).toMatchObject({
      'Cache-Control': 'public, max-age=60',
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(surface.targetOf('/problems/rate_limited').document).toBeDefined();
    expect(surface.targetOf('/api/v1/health').document, 'health is answered per request').toBeUndefined();
    expect(surface.targetOf('/mcp').document).toBeUndefined();
  });

  it('gives an unknown path the not-found target of its area, without a route', async () => {
    const surface = await buildSurface(
      {
        ...settings,
        deprecation: deprecationNotice(BASE, {
          deprecatedAt: new Date('2027-01-01'),
          sunsetAt: new Date('2027-07-01'),
          successorPath: '/api/v2',
        }),
      },
      sampleFacts(),
    );
    const underV1 = surface.targetOf('/api/v1/nope');
    const elsewhere = surface.targetOf('/nope');
    expect(underV1.route).toBeUndefined();
    expect(underV1.problem('api_route_not_found').identity.headers.Deprecation, 'under /api/v1: the deprecation notice').toBeDefined();
    expect(elsewhere.problem('api_route_not_found').identity.headers.Deprecation).toBeUndefined();
    expect(surface.targetOf('/other')).toBe(elsewhere);
  });

  it('prepares a problem answer once per path and code', async () => {
    const surface = await buildSurface(settings, sampleFacts());
    const target = surface.targetOf('/mcp');
    expect(target.problem('method_not_allowed')).toBe(target.problem('method_not_allowed'));
    expect(target.problem('method_not_allowed').status).toBe(405);
    expect(target.problem('method_not_allowed').identity.headers.Allow).toBe('POST, OPTIONS');
  });

  it('answers health ok, or degraded with its reason built once per reason', async () => {
    const surface = await buildSurface(settings, sampleFacts());
    const ok = JSON.parse(text((await surface.health(undefined)).identity.body));
    expect(ok).toMatchObject({ status: 'ok', rateLimitStore: 'memory', facts: { reviewedOn: sampleFacts().product.reviewedOn } });
    const first = await surface.health('Redis did not answer');
    expect(await surface.health('Redis did not answer')).toBe(first);
    expect(JSON.parse(text(first.identity.body))).toMatchObject({ status: 'degraded', reason: 'Redis did not answer' });
    expect(JSON.parse(text((await surface.health('another reason')).identity.body)).reason).toBe('another reason');
    expect(first.identity.headers['Cache-Control']).toBe('no-store');
  });
});
