import { describe, expect, it } from 'vitest';
import { pathsOf } from '../src/route.ts';
import { isServedPath, ROUTES, servedRoutes } from '../src/routes.ts';

describe('the route table', () => {
  it('declares each path once', () => {
    const paths = ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => path));
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives every document a builder and a cache policy, and unique operation ids', () => {
    for (const route of ROUTES.filter((route) => route.answer !== 'mcp')) {
      expect(route.cacheControl, route.path).toMatch(/^(public, max-age=\d+(, immutable)?|no-store)$/);
      if (route.answer !== 'health' && route.answer !== 'asset') expect(typeof route.answer, route.path).toBe('function');
    }
    const ids = ROUTES.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('counts every route but health', () => {
    expect(ROUTES.filter((route) => route.counted === false).map((route) => route.path)).toEqual(['/api/v1/health']);
  });

  it('declares the MCP endpoint with its HTTP-level refusals', () => {
    const mcp = ROUTES.find((route) => route.answer === 'mcp')!;
    expect(mcp.path).toBe('/mcp');
    expect(mcp.methods).toEqual(['POST']);
    expect([...mcp.refusals!].sort()).toEqual([
      'bad_request',
      'not_acceptable',
      'origin_not_allowed',
      'payload_too_large',
      'unsupported_media_type',
    ]);
  });

  it('links the API and the catalog to the catalog (RFC 9727 section 3), and the root to everything', () => {
    const linking = ROUTES.filter((route) => route.links?.includes('api-catalog')).map((route) => route.path);
    expect(linking.sort()).toEqual(['/', '/.well-known/api-catalog', '/api/v1']);
    expect(ROUTES.find((route) => route.path === '/')!.links).toEqual(['api-catalog', 'service-doc', 'describedby', 'jsonLd', 'markdown']);
  });

  it('serves the docs page and its files only while the docs page is on', () => {
    const docs = ROUTES.filter((route) => route.docsPage).map((route) => route.path);
    expect(docs).toEqual(['/docs', '/docs/{asset}']);
    const contact = 'mailto:security@example.com';
    expect(servedRoutes({ docsPage: true, securityContact: contact })).toEqual(ROUTES);
    expect(servedRoutes({ docsPage: false, securityContact: contact }).map((route) => route.path)).toEqual(
      ROUTES.map((route) => route.path).filter((path) => !docs.includes(path)),
    );
  });

  it('serves security.txt only while a security contact is set', () => {
    expect(ROUTES.filter((route) => route.securityContact).map((route) => route.path)).toEqual(['/.well-known/security.txt']);
    expect(servedRoutes({ docsPage: true }).map((route) => route.path)).toEqual(
      ROUTES.map((route) => route.path).filter((path) => path !== '/.well-known/security.txt'),
    );
  });

  it('matches exactly the paths the table serves', () => {
    for (const route of ROUTES) for (const { path } of pathsOf(route)) expect(isServedPath(path), path).toBe(true);
    for (const path of [
      '/api',
      '/api/',
      '/api/v1/',
      '/api/v2/things',
      '/api/v10',
      '/apix',
      '/mcp/',
      '/mcpx',
      '/openapi.json/x',
      '/problems/',
      '/problems/nope',
      '/llms.txt?x=1',
      '/API/V1',
    ]) {
      expect(isServedPath(path), path).toBe(false);
    }
  });
});
