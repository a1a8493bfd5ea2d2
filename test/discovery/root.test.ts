/**
 * The host's root: its JSON body against its valibot schema, and its Link field read by an RFC 8288
 * parser (http-link-header), with and without the docs page. Every link stays on {base}.
 */
import LinkHeader from 'http-link-header';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildRoot, rootLinkHeader } from '../../src/discovery/root.ts';
import { RootDocument } from '../../src/discovery/schemas.ts';
import { BASE, sampleFacts } from '../support/handler.ts';

const facts = sampleFacts();

describe('buildRoot', () => {
  it('names the product in one sentence and links every entry point', () => {
    const root = v.parse(RootDocument, buildRoot(BASE, facts, { docsPage: true }));
    expect(root.name).toBe(`${facts.product.name} public API`);
    expect(root.description).toMatch(/^[^.]+\.$/);
    expect(root.description).toContain(facts.product.name);
    expect(root.links).toEqual({
      api: `${BASE}/api/v1`,
      docs: `${BASE}/docs`,
      openapi: `${BASE}/openapi.json`,
      mcp: `${BASE}/mcp`,
      apiCatalog: `${BASE}/.well-known/api-catalog`,
      llmsTxt: `${BASE}/llms.txt`,
      llmsFullTxt: `${BASE}/llms-full.txt`,
      mcpServerCard: `${BASE}/mcp/server-card`,
    });
  });

  it('leaves the docs page out when it is off', () => {
    const root = v.parse(RootDocument, buildRoot(BASE, facts, { docsPage: false }));
    expect(root.links).not.toHaveProperty('docs');
    expect(JSON.stringify(root)).not.toContain('/docs');
  });
});

describe('rootLinkHeader (RFC 8288)', () => {
  const parsed = (docsPage: boolean) => LinkHeader.parse(rootLinkHeader(BASE, { docsPage }));

  it('links the catalog, the OpenAPI document, the docs page and the server card, each with its type', () => {
    const links = parsed(true);
    const one = (rel: string) => {
      const refs = links.rel(rel);
      expect(refs, rel).toHaveLength(1);
      return { uri: refs[0]!.uri, type: refs[0]!.type };
    };
    expect(one('api-catalog')).toEqual({ uri: `${BASE}/.well-known/api-catalog`, type: 'application/linkset+json' });
    expect(one('service-desc')).toEqual({ uri: `${BASE}/openapi.json`, type: 'application/json' });
    expect(one('service-doc')).toEqual({ uri: `${BASE}/docs`, type: 'text/html' });
    expect(one('describedby')).toEqual({ uri: `${BASE}/mcp/server-card`, type: 'application/mcp-server-card+json' });
    expect(links.refs).toHaveLength(4);
  });

  it('has no service-doc while the docs page is off', () => {
    const links = parsed(false);
    expect(links.rel('service-doc')).toEqual([]);
    expect(links.refs.map((ref) => ref.rel).sort()).toEqual(['api-catalog', 'describedby', 'service-desc']);
  });

  it('names the same targets as the body', () => {
    const root = buildRoot(BASE, facts, { docsPage: true });
    const targets = parsed(true).refs.map((ref) => ref.uri);
    expect(Object.values(root.links)).toEqual(expect.arrayContaining(targets));
  });
});
