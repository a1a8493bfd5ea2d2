/**
 * /.well-known/ai-catalog.json through the handler: the AI Catalog the MCP server-card draft names,
 * with four entries (the server card, the OpenAPI document, the skill, llms.txt), each URL answering
 * 200 on the service with what its type says; ETag, 304 and HEAD as every document.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildAiCatalog, publisherOf } from '../../src/discovery/ai-catalog.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';

afterAll(closeHandlers);

const PATH = '/.well-known/ai-catalog.json';

describe('GET /.well-known/ai-catalog.json', () => {
  it('lists the server card, the OpenAPI document, the skill and llms.txt, each resolving here', async () => {
    const handler = await makeHandler();
    const answer = await handler(get(PATH));
    expect(answer.status).toBe(200);
    // JSON, as the contract has every document but the ones it lists.
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    const catalog = await answer.json();
    const facts = sampleFacts();
    expect(catalog.specVersion).toBe('1.0');
    expect(catalog.host).toEqual({ displayName: facts.product.name, documentationUrl: `${BASE}/docs` });
    expect(
      catalog.entries.map((entry: { identifier: string; type: string; url: string }) => [entry.identifier, entry.type, entry.url]),
    ).toEqual([
      ['urn:air:api.example.com:mcp:product-discovery', 'application/mcp-server-card+json', `${BASE}/mcp/server-card`],
      ['urn:air:api.example.com:openapi:product-discovery', 'application/openapi+json', `${BASE}/openapi.json`],
      ['urn:air:api.example.com:skill:product-discovery', 'text/markdown', `${BASE}/skill.md`],
      ['urn:air:api.example.com:llms-txt:product-discovery', 'text/markdown', `${BASE}/llms.txt`],
    ]);
    // Each URL answers 200 here, with the media type its entry names (the OpenAPI document as the JSON it is served as).
    const served: Record<string, string> = { 'application/openapi+json': 'application/json' };
    for (const entry of catalog.entries) {
      const target = await handler(new Request(entry.url));
      expect(target.status, entry.url).toBe(200);
      expect(target.headers.get('content-type')!.split(';')[0], entry.url).toBe(served[entry.type] ?? entry.type);
      expect(entry.updatedAt).toBe(`${facts.product.reviewedOn}T00:00:00Z`);
    }
    // The card names itself; the others say what they are.
    expect(catalog.entries[0]).not.toHaveProperty('displayName');
    for (const entry of catalog.entries.slice(1)) expect(entry.displayName && entry.description, entry.url).toMatch(/\S/);
  });

  it('answers HEAD without a body and If-None-Match with 304', async () => {
    const handler = await makeHandler();
    const answer = await handler(get(PATH));
    const etag = answer.headers.get('etag')!;
    expect(etag).toMatch(/^(W\/)?"/);
    const head = await handler(get(PATH, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await handler(get(PATH, { headers: { 'if-none-match': etag } }))).status).toBe(304);
  });

  it('leaves the docs page out while it is off, and anchors identifiers on localhost for an IP address', () => {
    const skill = { name: 'product-discovery', description: 'x', text: '' };
    const catalog = buildAiCatalog({ base: 'http://127.0.0.1:8787', facts: sampleFacts(), docsPage: false, skill });
    expect(catalog.host).not.toHaveProperty('documentationUrl');
    expect(catalog.entries[0]!.identifier).toBe('urn:air:localhost:mcp:product-discovery');
    expect(publisherOf('http://[::1]:8787')).toBe('localhost');
    expect(publisherOf('https://API.Example.com')).toBe('api.example.com');
  });
});
