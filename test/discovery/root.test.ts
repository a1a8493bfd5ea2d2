/**
 * The host's root: its JSON body against its valibot schema, with and without the docs page. Every
 * link stays on {base}. (Its Link field is the header rules', tested with them.)
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildRoot } from '../../src/discovery/root.ts';
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
