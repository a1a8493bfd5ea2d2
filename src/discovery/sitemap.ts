/**
 * @module /sitemap.xml (sitemaps.org protocol 0.9): every GET document the service serves for people
 * and crawlers, each with `<lastmod>` the facts' review date, the day its content last changed.
 */
import {
  AI_CATALOG_PATH,
  API_PATH,
  DOCS_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  OPENAPI_PATH,
  PRODUCT_PATH,
  ROOT_PATH,
  SERVER_CARD_PATH,
  SKILL_PATH,
} from '../route.ts';
import type { Product } from '../facts/schema.ts';

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

// sitemaps.org "Entity escaping": a URL's &, ', ", < and > are written as entities.
const escapeXml = (text: string) =>
  text.replace(/[&'"<>]/g, (c) => ({ '&': '&amp;', "'": '&apos;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);

/** The paths the sitemap lists, in order. */
export function sitemapPaths({ docsPage }: { docsPage: boolean }): string[] {
  return [
    ROOT_PATH,
    API_PATH,
    PRODUCT_PATH,
    OPENAPI_PATH,
    ...(docsPage ? [DOCS_PATH] : []),
    LLMS_PATH,
    LLMS_FULL_PATH,
    SERVER_CARD_PATH,
    SKILL_PATH,
    AI_CATALOG_PATH,
  ];
}

export function buildSitemap({ base, facts, docsPage }: { base: string; facts: Product; docsPage: boolean }): string {
  const urls = sitemapPaths({ docsPage }).map(
    (path) => `  <url><loc>${escapeXml(`${base}${path}`)}</loc><lastmod>${facts.product.reviewedOn}</lastmod></url>`,
  );
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<urlset xmlns="${SITEMAP_NAMESPACE}">`, ...urls, '</urlset>', ''].join('\n');
}
