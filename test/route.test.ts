import { describe, expect, it } from 'vitest';
import { allowOf, contentTypeOf, isV1Path, pathsOf, takes, type Route } from '../src/route.ts';
import { ROUTES } from '../src/routes.ts';
import { PROBLEM_CODES } from '../src/contract/problem-codes.ts';

const route = (path: string) => ROUTES.find((candidate) => candidate.path === path)!;

describe('a route declaration', () => {
  it('fills a template with every parameter value', () => {
    expect(pathsOf(route('/problems/{code}'))).toEqual(PROBLEM_CODES.map((code) => ({ path: `/problems/${code}`, params: { code } })));
    expect(pathsOf(route('/api/v1/product'))).toEqual([{ path: '/api/v1/product', params: {} }]);
    const twoParams = { ...route('/problems/{code}'), path: '/{a}/{b}', params: { a: ['x', 'y'], b: ['1', '2'] } } as Route;
    expect(pathsOf(twoParams).map(({ path }) => path)).toEqual(['/x/1', '/x/2', '/y/1', '/y/2']);
  });

  it('allows each route its methods and OPTIONS', () => {
    expect(Object.fromEntries(ROUTES.map((each) => [each.path, allowOf(each)]))).toEqual({
      '/': 'GET, HEAD, OPTIONS',
      '/api/v1': 'GET, HEAD, OPTIONS',
      '/api/v1/health': 'GET, HEAD, OPTIONS',
      '/api/v1/product': 'GET, HEAD, OPTIONS',
      '/openapi.json': 'GET, HEAD, OPTIONS',
      '/problems/{code}': 'GET, HEAD, OPTIONS',
      '/schemas/facts.json': 'GET, HEAD, OPTIONS',
      '/.well-known/api-catalog': 'GET, HEAD, OPTIONS',
      '/llms.txt': 'GET, HEAD, OPTIONS',
      '/mcp/server-card': 'GET, HEAD, OPTIONS',
      '/.well-known/mcp/server-card.json': 'GET, HEAD, OPTIONS',
      '/llms-full.txt': 'GET, HEAD, OPTIONS',
      '/robots.txt': 'GET, HEAD, OPTIONS',
      '/docs': 'GET, HEAD, OPTIONS',
      '/docs/{asset}': 'GET, HEAD, OPTIONS',
      '/sitemap.xml': 'GET, HEAD, OPTIONS',
      '/skill.md': 'GET, HEAD, OPTIONS',
      '/.well-known/agent-skills/index.json': 'GET, HEAD, OPTIONS',
      '/.well-known/agent-skills/{name}/SKILL.md': 'GET, HEAD, OPTIONS',
      '/.well-known/ai-catalog.json': 'GET, HEAD, OPTIONS',
      '/.well-known/security.txt': 'GET, HEAD, OPTIONS',
      '/mcp': 'POST, OPTIONS',
    });
  });

  it('takes exactly its methods', () => {
    expect(['GET', 'HEAD', 'POST', 'OPTIONS', 'get'].map((method) => takes(route('/api/v1'), method))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(['GET', 'HEAD', 'POST'].map((method) => takes(route('/mcp'), method))).toEqual([false, false, true]);
  });

  it('gives each success answer the exact Content-Type of the contract', () => {
    const contentTypes = Object.fromEntries(ROUTES.filter((each) => !each.params).map((each) => [each.path, contentTypeOf(each)]));
    expect(contentTypes).toMatchObject({
      '/': 'application/json; charset=utf-8',
      '/api/v1': 'application/json; charset=utf-8',
      '/.well-known/api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      '/llms.txt': 'text/markdown; charset=utf-8',
      '/llms-full.txt': 'text/markdown; charset=utf-8',
      '/robots.txt': 'text/plain; charset=utf-8',
      '/docs': 'text/html; charset=utf-8',
      '/mcp/server-card': 'application/mcp-server-card+json',
      '/.well-known/mcp/server-card.json': 'application/mcp-server-card+json',
      '/sitemap.xml': 'application/xml',
      '/skill.md': 'text/markdown; charset=utf-8',
      '/.well-known/agent-skills/index.json': 'application/json; charset=utf-8',
      '/.well-known/ai-catalog.json': 'application/json; charset=utf-8',
      '/.well-known/security.txt': 'text/plain; charset=utf-8',
    });
    const skill = route('/.well-known/agent-skills/{name}/SKILL.md');
    expect(pathsOf(skill).map(({ params }) => contentTypeOf(skill, params))).toEqual(['text/markdown; charset=utf-8']);
    const asset = route('/docs/{asset}');
    const types = pathsOf(asset).map(({ params }) => contentTypeOf(asset, params));
    expect(new Set(types)).toEqual(new Set(['text/javascript; charset=utf-8', 'text/css; charset=utf-8']));
  });

  it('tells which paths are under /api/v1', () => {
    expect(['/api/v1', '/api/v1/product', '/api/v1/x/y'].map(isV1Path)).toEqual([true, true, true]);
    expect(['/api/v10', '/api/v2', '/api', '/openapi.json', '/mcp', '/llms.txt'].map(isV1Path)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
