/**
 * The host's root: its JSON body against its valibot schema, with and without the docs page. Every
 * link stays on {base}. Through the handler: JSON by default, the Markdown when preferred, a browser
 * sent to the docs page. (Its Link field is the header rules', tested with them.)
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRoot, rootMarkdown } from '../../src/discovery/root.ts';
import { RootDocument } from '../../src/discovery/schemas.ts';
import type { Handler } from '../../src/handler.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';

const facts = sampleFacts();

describe('buildRoot', () => {
  it('names the product in one sentence and links every entry point', () => {
    const root = v.parse(RootDocument, buildRoot({ base: BASE, facts, docsPage: true }));
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
      aiCatalog: `${BASE}/.well-known/ai-catalog.json`,
    });
  });

  it('says the same as Markdown: the product, its summary and every entry point of the JSON as a link', () => {
    const markdown = rootMarkdown({ base: BASE, facts, docsPage: true });
    expect(markdown.split('\n')[0]).toBe(`# ${facts.product.name} public API`);
    expect(markdown).toContain(`\n> ${facts.product.summary}\n`);
    const linked = [...markdown.matchAll(/\]\((\S+)\)/g)].map((match) => match[1]);
    expect(linked.sort()).toEqual(expect.arrayContaining(Object.values(buildRoot({ base: BASE, facts, docsPage: true }).links).sort()));
    expect(rootMarkdown({ base: BASE, facts, docsPage: false })).not.toContain('/docs');
  });

  it('leaves the docs page out when it is off', () => {
    const root = v.parse(RootDocument, buildRoot({ base: BASE, facts, docsPage: false }));
    expect(root.links).not.toHaveProperty('docs');
    expect(JSON.stringify(root)).not.toContain('/docs');
  });
});

describe('GET / negotiated (RFC 9110 section 12.5.1)', () => {
  let handler: Handler;
  beforeAll(async () => {
    handler = await makeHandler();
  });
  afterAll(closeHandlers);
  const ask = (accept?: string, init: RequestInit = {}) =>
    handler(get('/', { ...init, headers: { ...(accept ? { accept } : {}), ...(init.headers as object) } }));

  it.each([undefined, '*/*', 'application/json', 'text/markdown;q=0.5, application/json'])('answers JSON to Accept %j', async (accept) => {
    const answer = await ask(accept);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('vary')).toContain('Accept');
    v.parse(RootDocument, await answer.json());
  });

  it.each([
    ['text/markdown', 'text/markdown; charset=utf-8'],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['text/markdown, application/json;q=0.9', 'text/markdown; charset=utf-8'],
  ])('answers the Markdown to Accept %j as %s, each type with its own ETag', async (accept, type) => {
    const answer = await ask(accept);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    expect(answer.headers.get('vary')).toContain('Accept');
    expect(await answer.text()).toBe(rootMarkdown({ base: BASE, facts, docsPage: true }));
    expect(answer.headers.get('etag')).not.toBe((await ask()).headers.get('etag'));
    expect((await ask(accept, { headers: { 'if-none-match': answer.headers.get('etag')! } })).status).toBe(304);
  });

  it('sends a browser to the docs page with 302, no body and Vary: Accept', async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const answer = await ask(browser);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`${BASE}/docs`);
    expect(answer.headers.get('vary')).toContain('Accept');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await answer.text()).toBe('');
    expect((await ask(browser, { method: 'HEAD' })).status).toBe(302);
  });

  it('answers a browser with JSON while the docs page is off', async () => {
    const off = await makeHandler({ docsPage: false });
    const answer = await off(get('/', { headers: { accept: 'text/html,*/*;q=0.8' } }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('location')).toBeNull();
  });

  it('links its Markdown and the JSON-LD in Link', async () => {
    const link = (await ask()).headers.get('link')!;
    expect(link).toContain(`<${BASE}/>; rel="alternate"; type="text/markdown"`);
    expect(link).toContain(`<${BASE}/api/v1/product>; rel="describedby"; type="application/ld+json"`);
  });
});
