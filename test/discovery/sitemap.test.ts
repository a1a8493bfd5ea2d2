/**
 * /sitemap.xml through the handler: a sitemaps.org 0.9 urlset as application/xml, every document for
 * people and crawlers (the docs page only while it is served), each `lastmod` the facts' review date,
 * each URL answering 200 on the service; robots.txt names it.
 */
import robotsParser from 'robots-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { SITEMAP_NAMESPACE } from '../../src/discovery/sitemap.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';

afterAll(closeHandlers);

/** The `<url>` entries of a urlset: each `<loc>` and `<lastmod>`, and whether nothing else is in the document. */
function urlsOf(xml: string) {
  const urls = [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map(([, loc, lastmod]) => ({
    loc: loc!,
    lastmod: lastmod!,
  }));
  const rest = xml.replace(/<url><loc>[^<]+<\/loc><lastmod>[^<]+<\/lastmod><\/url>/g, '').replace(/\s+/g, '');
  return { urls, rest };
}

describe('GET /sitemap.xml', () => {
  it('lists every document for crawlers with the review date as lastmod, as application/xml', async () => {
    const handler = await makeHandler();
    const answer = await handler(get('/sitemap.xml'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/xml');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    const { urls, rest } = urlsOf(await answer.text());
    expect(rest).toBe(`<?xmlversion="1.0"encoding="UTF-8"?><urlsetxmlns="${SITEMAP_NAMESPACE}"></urlset>`);
    expect(urls.map((url) => url.loc)).toEqual(
      [
        '/',
        '/api/v1',
        '/api/v1/product',
        '/openapi.json',
        '/docs',
        '/llms.txt',
        '/llms-full.txt',
        '/mcp/server-card',
        '/skill.md',
        '/.well-known/ai-catalog.json',
      ].map((path) => `${BASE}${path}`),
    );
    for (const url of urls) expect(url.lastmod, url.loc).toBe(sampleFacts().product.reviewedOn);
    for (const url of urls) expect((await handler(new Request(url.loc))).status, url.loc).toBe(200);
  });

  it('follows the facts: a new review date is every lastmod after a reload', async () => {
    const handler = await makeHandler();
    const facts = sampleFacts();
    facts.product.reviewedOn = '2027-02-03';
    await handler.reload(facts);
    const { urls } = urlsOf(await (await handler(get('/sitemap.xml'))).text());
    expect(new Set(urls.map((url) => url.lastmod))).toEqual(new Set(['2027-02-03']));
  });

  it('leaves the docs page out while it is off', async () => {
    const handler = await makeHandler({ docsPage: false });
    expect(await (await handler(get('/sitemap.xml'))).text()).not.toContain('/docs');
  });

  it('is named by robots.txt', async () => {
    const handler = await makeHandler();
    const robots = robotsParser(`${BASE}/robots.txt`, await (await handler(get('/robots.txt'))).text());
    expect(robots.getSitemaps()).toEqual([`${BASE}/sitemap.xml`]);
  });
});
