/**
 * The host's root: its JSON body against its valibot schema, with and without the docs page. Every
 * link stays on {base}. (Its Link field is the header rules', tested with them.)
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildRoot, rootMarkdown } from '../../src/discovery/root.ts';
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
      product: `${BASE}/api/v1/product`,
      docs: `${BASE}/docs`,
      openapi: `${BASE}/openapi.json`,
      mcp: `${BASE}/mcp`,
      apiCatalog: `${BASE}/.well-known/api-catalog`,
      llmsTxt: `${BASE}/llms.txt`,
      llmsFullTxt: `${BASE}/llms-full.txt`,
      mcpServerCard: `${BASE}/mcp/server-card`,
      sitemap: `${BASE}/sitemap.xml`,
      skill: `${BASE}/skill.md`,
    });
  });

  it('says the same as Markdown: the product, its summary and every entry point of the JSON as a link', () => {
    const markdown = rootMarkdown(BASE, facts, { docsPage: true });
    expect(markdown.split('\n')[0]).toBe(`# ${facts.product.name} public API`);
    expect(markdown).toContain(`\n> ${facts.product.summary}\n`);
    const linked = [...markdown.matchAll(/\]\((\S+)\)/g)].map((match) => match[1]);
    expect(linked.sort()).toEqual(expect.arrayContaining(Object.values(buildRoot(BASE, facts, { docsPage: true }).links).sort()));
    expect(rootMarkdown(BASE, facts, { docsPage: false })).not.toContain('/docs');
  });

  it('leaves the docs page out when it is off', () => {
    const root = v.parse(RootDocument, buildRoot(BASE, facts, { docsPage: false }));
    expect(root.links).not.toHaveProperty('docs');
    expect(JSON.stringify(root)).not.toContain('/docs');
  });
});
