import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handler.ts';
import { PROBLEM_CODES } from '../../src/contract/problem-codes.ts';
import { BASE, get, makeHandler } from '../support/handler.ts';

type Doc = {
  servers: { url: string }[];
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, any> };
};

/** An ajv (independent of valibot) that resolves the document's component refs. */
function schemaValidator(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  return (schema: unknown) => ajv.compile(rebase(schema));
}

/** Points `#/components/...` refs at the registered document. */
function rebase(schema: unknown): any {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
}

function responseSchema(doc: Doc, path: string, method: string, status: string, mediaType: string) {
  let response = doc.paths[path]?.[method]?.responses?.[status];
  if (response?.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  return response?.content?.[mediaType]?.schema;
}

describe('the served OpenAPI document', () => {
  let handle: Handler;
  let doc: Doc;
  beforeAll(async () => {
    handle = await makeHandler();
    doc = await (await handle(get('/openapi.json'))).json();
  });
  afterAll(() => handle.close());

  it('is a valid OpenAPI 3.1 document (independent validator)', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names the public base URL as its server', () => {
    expect(doc.servers).toEqual([{ url: BASE }]);
  });

  it('describes every path the service serves, and only those', () => {
    const documents = [
      '/',
      '/.well-known/api-catalog',
      '/.well-known/mcp/server-card.json',
      '/api/v1',
      '/api/v1/health',
      '/api/v1/product',
      '/docs',
      '/docs/{asset}',
      '/llms-full.txt',
      '/llms.txt',
      '/mcp/server-card',
      '/openapi.json',
      '/problems/{code}',
      '/robots.txt',
      '/schemas/facts.json',
      '/sitemap.xml',
      '/skill.md',
      '/.well-known/agent-skills/index.json',
      '/.well-known/agent-skills/{name}/SKILL.md',
      '/.well-known/ai-catalog.json',
    ];
    expect(Object.keys(doc.paths).sort()).toEqual([...documents, '/mcp'].sort());
    expect(Object.keys(doc.paths['/mcp']!)).toEqual(['post']);
    for (const path of documents) {
      expect(Object.keys(doc.paths[path]!).sort()).toEqual(['get', 'head']);
    }
  });

  it.each([
    ['/', '/'],
    ['/robots.txt', '/robots.txt'],
    ['/llms-full.txt', '/llms-full.txt'],
    ['/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card.json'],
    ['/docs', '/docs'],
    ['/schemas/facts.json', '/schemas/facts.json'],
    ['/api/v1', '/api/v1'],
    ['/api/v1/health', '/api/v1/health'],
    ['/api/v1/product', '/api/v1/product'],
    ['/openapi.json', '/openapi.json'],
    ['/.well-known/api-catalog', '/.well-known/api-catalog'],
    ['/mcp/server-card', '/mcp/server-card'],
    ['/llms.txt', '/llms.txt'],
    ...PROBLEM_CODES.map((code) => [`/problems/${code}`, '/problems/{code}']),
  ])('validates the 200 body of GET %s against its operation schema', async (path, template) => {
    const response = await handle(get(path));
    const schema = responseSchema(doc, template, 'get', '200', response.headers.get('content-type')!.split(';')[0]!);
    expect(schema).toBeDefined();
    const validate = schemaValidator(doc)(schema);
    const isJson = /json/.test(response.headers.get('content-type')!);
    const body = isJson ? await response.json() : await response.text();
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['GET', '/nope'],
    ['DELETE', '/api/v1/product'],
    ['POST', '/openapi.json'],
  ])('validates the problem body of %s %s against the Problem schema', async (method, path) => {
    const response = await handle(get(path, { method }));
    const schema = responseSchema(doc, '/problems/{code}', 'get', '404', 'application/problem+json');
    const validate = schemaValidator(doc)(schema);
    expect(validate(await response.json()), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['text/markdown', 'text/markdown'],
    ['text/plain', 'text/plain'],
    ['application/json', 'application/json'],
  ])('describes the product as %s for an Accept that prefers it, and validates that body', async (accept, type) => {
    const response = await handle(get('/api/v1/product', { headers: { accept } }));
    expect(response.headers.get('content-type')!.split(';')[0]).toBe(type);
    const schema = responseSchema(doc, '/api/v1/product', 'get', '200', type);
    const validate = schemaValidator(doc)(schema);
    const body = type === 'application/json' ? await response.json() : await response.text();
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it('gives every JSON document and problem an example that is its real body and valid against its schema', async () => {
    const validator = schemaValidator(doc);
    let examples = 0;
    const check = (content: Record<string, any> | undefined, at: string) => {
      for (const [mediaType, { schema, example }] of Object.entries<any>(content ?? {})) {
        if (example === undefined) continue;
        examples++;
        const validate = validator(schema);
        expect(validate(example), `${at} ${mediaType}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        check(operation.requestBody?.content, `${method} ${path} request`);
        for (const [status, response] of Object.entries<any>(operation.responses)) check(response.content, `${method} ${path} ${status}`);
      }
    }
    for (const [name, response] of Object.entries<any>(doc.components.responses)) check(response.content, name);
    expect(examples).toBeGreaterThan(10);
    const product = doc.paths['/api/v1/product']!.get.responses['200'].content['application/json'].example;
    expect(product).toEqual(await (await handle(get('/api/v1/product'))).json());
    expect(doc.components.responses.NotFound.content['application/problem+json'].example).toEqual(
      await (await handle(get('/nope'))).json(),
    );
  });

  it('rejects a body that breaks the schema (the check can fail)', async () => {
    const schema = responseSchema(doc, '/api/v1/product', 'get', '200', 'application/json');
    const validate = schemaValidator(doc)(schema);
    const body = await (await handle(get('/api/v1/product'))).json();
    delete body.product.reviewedOn;
    expect(validate(body)).toBe(false);
  });

  it('declares the rate-limit headers on every response, and the 429 and 503 on every counted operation (all but health)', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const refusals =
          path === '/api/v1/health'
            ? [undefined, undefined]
            : [{ $ref: '#/components/responses/TooManyRequests' }, { $ref: '#/components/responses/ServiceUnavailable' }];
        expect([operation.responses['429'], operation.responses['503']], `${method} ${path}`).toEqual(refusals);
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const resolved = response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response;
          if (status === '400') continue; // answered by the MCP SDK itself
          expect(Object.keys(resolved.headers ?? {}), `${method} ${path} ${status}`).toEqual(
            expect.arrayContaining(['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
          );
        }
      }
    }
    expect(Object.keys(doc.components.responses.TooManyRequests.headers)).toContain('Retry-After');
  });

  it('marks no operation deprecated while no deprecation is configured', () => {
    const deprecated = Object.values(doc.paths).flatMap((operations) => Object.values(operations).filter((op) => op.deprecated));
    expect(deprecated).toEqual([]);
  });
});

describe('the OpenAPI document while v1 is deprecated', () => {
  it('marks every /api/v1 operation deprecated and nothing else', async () => {
    const handle = await makeHandler({
      deprecation: { deprecatedAt: new Date('2026-01-01'), sunsetAt: new Date('2026-12-31'), successorPath: '/api/v2' },
    });
    const doc: Doc = await (await handle(get('/openapi.json'))).json();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const operation of Object.values(operations)) expect(Boolean(operation.deprecated), path).toBe(path.startsWith('/api/v1'));
    }
    await handle.close();
  });
});
