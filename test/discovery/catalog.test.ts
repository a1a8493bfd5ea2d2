/**
 * The RFC 9727 API catalog, read as a client would: its media type and profile, a well-formed
 * Linkset (RFC 9264 section 4.2), and every link resolved against the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiCatalog } from '../../src/discovery/catalog.ts';
import type { Handler } from '../../src/handler.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';
import { parseLinks } from '../support/e2e.ts';

/** A Content-Type as its type and parameters (RFC 9110 section 8.3.1), parameter values unquoted. */
function parseContentType(value: string | null): { type: string; params: Record<string, string> } {
  const [type, ...rest] = (value ?? '').split(';').map((part) => part.trim());
  const params = Object.fromEntries(
    rest.map((param) => param.split('=') as [string, string]).map(([name, v]) => [name.toLowerCase(), v.replace(/^"|"$/g, '')]),
  );
  return { type: type!.toLowerCase(), params };
}

/** RFC 9264 section 4.2: { linkset: [context objects] }, each relation an array of target objects with an href. */
function expectLinkset(document: any): { anchor: string; rel: string; href: string; type?: string }[] {
  expect(Object.keys(document)).toEqual(['linkset']);
  expect(Array.isArray(document.linkset)).toBe(true);
  const links = [];
  for (const context of document.linkset) {
    expect(typeof context.anchor).toBe('string');
    for (const [rel, targets] of Object.entries<any>(context)) {
      if (rel === 'anchor') continue;
      expect(Array.isArray(targets), rel).toBe(true);
      expect(targets.length, rel).toBeGreaterThan(0);
      for (const target of targets) {
        expect(URL.canParse(target.href), `${rel} href ${target.href}`).toBe(true);
        for (const [name, value] of Object.entries(target)) if (name !== 'href') expect(typeof value, `${rel}.${name}`).toBe('string');
        links.push({ anchor: context.anchor, rel, href: target.href, type: target.type });
      }
    }
  }
  return links;
}

describe('GET /.well-known/api-catalog', () => {
  let handle: Handler;
  let response: Response;
  let links: ReturnType<typeof expectLinkset>;
  beforeAll(async () => {
    handle = await makeHandler();
    response = await handle(get('/.well-known/api-catalog'));
    links = expectLinkset(await response.clone().json());
  });
  afterAll(closeHandlers);

  it('is a Linkset with the RFC 9727 profile', () => {
    expect(response.status).toBe(200);
    expect(parseContentType(response.headers.get('content-type'))).toEqual({
      type: 'application/linkset+json',
      params: { profile: 'https://www.rfc-editor.org/info/rfc9727' },
    });
  });

  it('has one context, the API, with service-desc, service-doc, status, service-meta and describedby', () => {
    expect(new Set(links.map((link) => link.anchor))).toEqual(new Set([`${BASE}/api/v1`]));
    expect(new Set(links.map((link) => link.rel))).toEqual(
      new Set(['service-desc', 'service-doc', 'status', 'service-meta', 'describedby']),
    );
    expect(links.filter((link) => link.rel === 'describedby').map(({ href, type }) => ({ href, type }))).toEqual([
      { href: `${BASE}/api/v1/product`, type: 'application/ld+json' },
    ]);
  });

  it('points service-doc at the docs page, then exactly the facts’ docs resources, as HTML', () => {
    const docs = sampleFacts()
      .resources.filter((resource) => resource.kind === 'docs')
      .map((resource) => resource.url);
    const serviceDocs = links.filter((link) => link.rel === 'service-doc');
    expect(serviceDocs.map((link) => link.href)).toEqual([`${BASE}/docs`, ...docs]);
    for (const link of serviceDocs) expect(link.type).toBe('text/html');
  });

  it('resolves every link on the service with 200 and the type the catalog names', async () => {
    const own = links.filter((link) => link.href.startsWith(`${BASE}/`));
    expect(own.map((link) => link.rel).sort()).toEqual(['describedby', 'service-desc', 'service-doc', 'service-meta', 'status']);
    for (const link of own) {
      expect(link.href.startsWith(`${BASE}/`), link.href).toBe(true);
      const answer = await handle(new Request(link.href, { headers: { accept: link.type ?? '*/*' } }));
      expect(answer.status, link.href).toBe(200);
      expect(parseContentType(answer.headers.get('content-type')).type, link.href).toBe(link.type);
    }
  });

  it.each(['/.well-known/api-catalog', '/api/v1'])('links %s to the catalog besides the service description', async (path) => {
    for (const method of ['GET', 'HEAD']) {
      const answer = await handle(get(path, { method }));
      const rels = parseLinks(answer.headers.get('link') ?? '').map((link) => `${link.params.rel} ${link.uri}`);
      expect(rels).toEqual(expect.arrayContaining([`api-catalog ${BASE}/.well-known/api-catalog`, `service-desc ${BASE}/openapi.json`]));
    }
  });

  it('is not linked from paths other than the API index and itself', async () => {
    const answer = await handle(get('/api/v1/product'));
    expect(answer.headers.get('link')).not.toContain('api-catalog');
  });

  it('leaves service-doc out when the facts list no docs and the docs page is off', async () => {
    const facts = sampleFacts();
    facts.resources = facts.resources.filter((resource) => resource.kind !== 'docs');
    const other = await makeHandler({ facts, docsPage: false });
    const document = await (await other(get('/.well-known/api-catalog'))).json();
    expect(
      expectLinkset(document)
        .map((link) => link.rel)
        .sort(),
    ).toEqual(['describedby', 'service-desc', 'service-meta', 'status']);
  });
});

describe('buildApiCatalog with the docs page', () => {
  const serviceDocs = (docsPage: boolean, facts = sampleFacts()) =>
    expectLinkset(buildApiCatalog({ base: BASE, facts, docsPage })).filter((link) => link.rel === 'service-doc');

  it('puts {base}/docs first in service-doc, as HTML, while the page is on', () => {
    const docs = sampleFacts()
      .resources.filter((resource) => resource.kind === 'docs')
      .map((resource) => resource.url);
    expect(serviceDocs(true).map((link) => link.href)).toEqual([`${BASE}/docs`, ...docs]);
    expect(serviceDocs(true)[0]!.type).toBe('text/html');
    expect(serviceDocs(false).map((link) => link.href)).toEqual(docs);
  });

  it('keeps service-doc for the page alone when the facts list no docs', () => {
    const facts = sampleFacts();
    facts.resources = facts.resources.filter((resource) => resource.kind !== 'docs');
    expect(serviceDocs(true, facts).map((link) => link.href)).toEqual([`${BASE}/docs`]);
    expect(serviceDocs(false, facts)).toEqual([]);
  });
});
