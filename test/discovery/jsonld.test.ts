/**
 * The product as schema.org JSON-LD: GET /api/v1/product with an Accept that prefers
 * application/ld+json, expanded by a JSON-LD processor (jsonld from npm) to the schema.org
 * SoftwareApplication with the facts' values; its own ETag; the same object embedded in the docs
 * page as a data block; linked from the root and the API catalog.
 */
import jsonld from 'jsonld';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handler.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';

const SCHEMA = 'http://schema.org/';
/**
 * The schema.org context, offline: the published one (https://schema.org/docs/jsonldcontext.jsonld)
 * maps every term under this vocabulary and types `url`, `sameAs` and `target` as IRIs, as here.
 */
const SCHEMA_CONTEXT = {
  '@context': { '@vocab': SCHEMA, url: { '@type': '@id' }, sameAs: { '@type': '@id' }, target: { '@type': '@id' } },
};
const documentLoader = async (url: string) => {
  if (url.replace(/\/$/, '') !== 'https://schema.org') throw new Error(`no network in tests: ${url}`);
  return { contextUrl: undefined, documentUrl: url, document: SCHEMA_CONTEXT };
};

let handler: Handler;
beforeAll(async () => {
  handler = await makeHandler();
});
afterAll(closeHandlers);

const ldAnswer = () => handler(get('/api/v1/product', { headers: { accept: 'application/ld+json, application/json;q=0.5' } }));
const first = (node: Record<string, any>, term: string) => node[`${SCHEMA}${term}`]?.[0];

describe('the product as JSON-LD', () => {
  it('is a schema.org SoftwareApplication with the facts’ values, expanded by a JSON-LD processor', async () => {
    const answer = await ldAnswer();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    expect(answer.headers.get('vary')).toContain('Accept');
    const [node, ...others] = (await jsonld.expand(await answer.json(), { documentLoader: documentLoader as never })) as Record<
      string,
      any
    >[];
    expect(others).toEqual([]);
    const facts = sampleFacts();
    const website = facts.resources.find((resource) => resource.kind === 'website')!;
    expect(node!['@type']).toEqual([`${SCHEMA}SoftwareApplication`]);
    expect(first(node!, 'name')['@value']).toBe(facts.product.name);
    expect(first(node!, 'description')['@value']).toBe(facts.product.summary);
    expect(first(node!, 'url')['@id']).toBe(website.url);
    expect(first(node!, 'dateModified')['@value']).toBe(facts.product.reviewedOn);
    expect(first(node!, 'applicationCategory')['@value']).toEqual(expect.any(String));
    const sameAs = node![`${SCHEMA}sameAs`].map((item: { '@id': string }) => item['@id']);
    expect(sameAs.sort()).toEqual([...new Set(facts.resources.filter((r) => r !== website).map((r) => r.url))].sort());
    const actions = node![`${SCHEMA}potentialAction`];
    expect(actions.map((action: Record<string, any>) => first(action, 'target')['@id'])).toEqual(
      facts.startOptions.map((option) => option.url),
    );
    expect(actions.map((action: Record<string, any>) => first(action, 'name')['@value'])).toEqual(
      facts.startOptions.map((option) => option.title),
    );
  });

  it('has its own ETag, and JSON stays the default', async () => {
    const [ld, json] = [await ldAnswer(), await handler(get('/api/v1/product'))];
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(ld.headers.get('etag')).not.toBe(json.headers.get('etag'));
    const notModified = await handler(
      get('/api/v1/product', { headers: { accept: 'application/ld+json', 'if-none-match': ld.headers.get('etag')! } }),
    );
    expect(notModified.status).toBe(304);
  });

  it('is embedded in the docs page as the same object, in a data block', async () => {
    const page = await (await handler(get('/docs'))).text();
    const block = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page);
    expect(block).not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(await (await ldAnswer()).json());
  });

  it('is linked from the root and the API catalog with rel="describedby" and its type', async () => {
    const link = `<${BASE}/api/v1/product>; rel="describedby"; type="application/ld+json"`;
    expect((await handler(get('/'))).headers.get('link')).toContain(link);
    const catalog = await (await handler(get('/.well-known/api-catalog'))).json();
    expect(catalog.linkset[0].describedby).toEqual([{ href: `${BASE}/api/v1/product`, type: 'application/ld+json' }]);
  });
});

describe("the product's logo in JSON-LD", () => {
  it('is `logo` in the answer and in the docs page when the facts give one, and absent when they do not', async () => {
    const facts = sampleFacts();
    facts.product.logo = { url: 'https://www.example.com/logo.png', mediaType: 'image/png' };
    const withLogo = await makeHandler({ facts });
    const ld = await (await withLogo(get('/api/v1/product', { headers: { accept: 'application/ld+json' } }))).json();
    expect(ld.logo).toBe('https://www.example.com/logo.png');
    const page = await (await withLogo(get('/docs'))).text();
    expect(JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page)![1]!).logo).toBe(ld.logo);
    expect(await (await ldAnswer()).json()).not.toHaveProperty('logo');
  });
});
