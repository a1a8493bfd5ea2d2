/**
 * The served OpenAPI document as verify reads it: the GET paths to probe (templates filled from
 * their enums), the paths probed with a wrong method, and the validator of bodies against the
 * document's own schemas ($refs, formats and templated paths included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handler.ts';
import { getTargets, loadContract, nonGetPaths, type Contract } from '../../src/verify/document.ts';
import { closeHandlers, makeHandler, send } from '../support/handler.ts';

let handler: Handler;
let document: any;
let contract: Contract;

beforeAll(async () => {
  handler = await makeHandler();
  document = await (await send(handler, '/openapi.json')).json();
  contract = await loadContract(document);
});
afterAll(closeHandlers);

describe('getTargets', () => {
  it('gives one path per GET of the served document, each answered 200 by the service', async () => {
    const { targets, unfilled } = getTargets(document);
    expect(unfilled).toEqual([]);
    expect(targets.map((target) => target.template)).toEqual(Object.keys(document.paths).filter((path) => document.paths[path].get));
    expect(targets).toContainEqual({ template: '/problems/{code}', path: '/problems/api_route_not_found' });
    for (const { path } of targets) expect((await send(handler, path)).status, path).toBe(200);
  });

  it('fills a template from an example, on the operation or the path item, percent-encoded; leaves one with no value unfilled', () => {
    const paths = {
      '/a/{x}': { get: { parameters: [{ name: 'x', in: 'path', example: 'a b' }] } },
      '/b/{y}': { parameters: [{ name: 'y', in: 'path', schema: { examples: ['z/1'] } }], get: {} },
      '/c/{z}': { get: { parameters: [{ name: 'z', in: 'query', schema: { enum: ['q'] } }] } },
      '/d': { post: {} },
    };
    expect(getTargets({ paths })).toEqual({
      targets: [
        { template: '/a/{x}', path: '/a/a%20b' },
        { template: '/b/{y}', path: '/b/z%2F1' },
      ],
      unfilled: ['/c/{z}'],
    });
  });
});

describe('nonGetPaths', () => {
  it('gives the MCP endpoint with POST, which the service refuses to GET with that Allow', async () => {
    expect(nonGetPaths(document)).toEqual([{ path: '/mcp', methods: ['POST'] }]);
    const answer = await send(handler, '/mcp');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toContain('POST');
  });

  it('leaves out templated paths and paths that take no method', () => {
    expect(nonGetPaths({ paths: { '/x/{id}': { post: {} }, '/y': { summary: 'none' }, '/z': { put: {}, delete: {} } } })).toEqual([
      { path: '/z', methods: ['PUT', 'DELETE'] },
    ]);
  });
});

describe('loadContract', () => {
  it('lists the media types a GET documents for a status', () => {
    expect(contract.mediaTypes('/api/v1/product', 'get', 200)).toEqual([
      'application/json',
      'text/markdown',
      'text/plain',
      'application/ld+json',
    ]);
    expect(contract.mediaTypes('/problems/{code}', 'get', 404)).toEqual(['application/problem+json']);
    expect(contract.mediaTypes('/api/v1/product', 'get', 418)).toEqual([]);
  });

  it('accepts the bodies the service serves, JSON and text', async () => {
    const index = await (await send(handler, '/api/v1')).json();
    expect(contract.validate('/api/v1', 'get', 200, 'application/json', index)).toBeUndefined();
    const markdown = await (await send(handler, '/api/v1/product', { headers: { accept: 'text/markdown' } })).text();
    expect(contract.validate('/api/v1/product', 'get', 200, 'text/markdown', markdown)).toBeUndefined();
    const problemType = await (await send(handler, '/problems/rate_limited')).json();
    expect(contract.validate('/problems/{code}', 'get', 200, 'application/json', problemType)).toBeUndefined();
  });

  it('names what an edited body breaks, formats included', async () => {
    const index = await (await send(handler, '/api/v1')).json();
    expect(contract.validate('/api/v1', 'get', 200, 'application/json', { ...index, apiVersion: 'v2' })).toBe(
      '/apiVersion must be equal to constant',
    );
    const health = await (await send(handler, '/api/v1/health')).json();
    health.facts.loadedAt = 'yesterday';
    expect(contract.validate('/api/v1/health', 'get', 200, 'application/json', health)).toBe(
      '/facts/loadedAt must match format "date-time"',
    );
  });

  it('follows a response given by $ref (a 404 of a templated path)', async () => {
    const problem = await (await send(handler, '/problems/no_such_code')).json();
    expect(contract.validate('/problems/{code}', 'get', 404, 'application/problem+json', problem)).toBeUndefined();
    expect(contract.validate('/problems/{code}', 'get', 404, 'application/problem+json', { ...problem, status: '404' })).toBe(
      '/status must be integer',
    );
  });

  it('says when the document gives no schema for an answer', () => {
    expect(contract.validate('/api/v1', 'get', 200, 'text/html', '<p>')).toBe('the document gives no text/html schema for get /api/v1 200');
    expect(contract.validate('/nowhere', 'get', 200, 'application/json', {})).toBe(
      'the document gives no application/json schema for get /nowhere 200',
    );
  });

  it('validates against a named component schema', async () => {
    const problem = await (await send(handler, '/api/v1/nope')).json();
    expect(contract.validateComponent('Problem', problem)).toBeUndefined();
    const { type, title, ...partial } = problem;
    expect(contract.validateComponent('Problem', partial)).toBe(
      "/ must have required property 'type'; / must have required property 'title'",
    );
    expect(contract.validateComponent('Nothing', problem)).toBe('the document has no Nothing schema');
  });
});
