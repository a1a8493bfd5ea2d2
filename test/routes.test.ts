import { describe, expect, it } from 'vitest';
import { allowOf, contentTypeOf, isServedPath, isV1Path, pathsOf, ROUTES } from '../src/routes.ts';
import { PROBLEM_CODES } from '../src/schemas.ts';

describe('the route table', () => {
  it('declares each path once', () => {
    const paths = ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => path));
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('fills a template with every parameter value', () => {
    const problems = ROUTES.find((route) => route.path === '/problems/{code}')!;
    expect(pathsOf(problems)).toEqual(PROBLEM_CODES.map((code) => ({ path: `/problems/${code}`, params: { code } })));
    const product = ROUTES.find((route) => route.path === '/api/v1/product')!;
    expect(pathsOf(product)).toEqual([{ path: '/api/v1/product', params: {} }]);
  });

  it('allows each route its methods and OPTIONS', () => {
    expect(Object.fromEntries(ROUTES.map((route) => [route.path, allowOf(route)]))).toEqual({
      '/api/v1': 'GET, HEAD, OPTIONS',
      '/api/v1/health': 'GET, HEAD, OPTIONS',
      '/api/v1/product': 'GET, HEAD, OPTIONS',
      '/openapi.json': 'GET, HEAD, OPTIONS',
      '/problems/{code}': 'GET, HEAD, OPTIONS',
      '/.well-known/api-catalog': 'GET, HEAD, OPTIONS',
      '/llms.txt': 'GET, HEAD, OPTIONS',
      '/mcp/server-card': 'GET, HEAD, OPTIONS',
      '/mcp': 'POST, OPTIONS',
    });
  });

  it('gives every document a cache policy and unique operation ids', () => {
    for (const route of ROUTES.filter((route) => route.answer !== 'mcp')) expect(route.cacheControl, route.path).toMatch(/^(public, max-age=\d+|no-store)$/);
    const ids = ROUTES.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives each success answer the exact Content-Type of the contract', () => {
    const contentTypes = Object.fromEntries(ROUTES.map((route) => [route.path, contentTypeOf(route)]));
    expect(contentTypes).toMatchObject({
      '/api/v1': 'application/json; charset=utf-8',
      '/.well-known/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      '/llms.txt': 'text/markdown; charset=utf-8',
      '/mcp/server-card': 'application/mcp-server-card+json',
    });
  });

  it('tells which paths are under /api/v1', () => {
    expect(['/api/v1', '/api/v1/product'].map(isV1Path)).toEqual([true, true]);
    expect(['/api/v10', '/api/v2', '/openapi.json', '/mcp', '/llms.txt'].map(isV1Path)).toEqual([false, false, false, false, false]);
  });

  it('matches exactly the paths the table serves', () => {
    for (const route of ROUTES) for (const { path } of pathsOf(route)) expect(isServedPath(path), path).toBe(true);
    for (const path of ['/api', '/api/', '/api/v1/', '/api/v2/things', '/api/v10', '/apix', '/mcp/', '/mcpx', '/openapi.json/x', '/problems/', '/problems/nope', '/llms.txt?x=1', '/API/V1']) {
      expect(isServedPath(path), path).toBe(false);
    }
  });
});
