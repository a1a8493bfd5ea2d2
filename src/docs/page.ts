/**
 * @module The docs page (`GET /docs`): an HTML shell that loads Swagger UI from /docs/ and points it
 * at the same origin's /openapi.json. It holds no inline script or style, so its Content-Security-Policy
 * admits only files of this origin; the product's schema.org JSON-LD is embedded as a data block,
 * which is never run and so needs nothing from the policy (HTML, "data block").
 */
import { jsonLdScriptText } from '../discovery/jsonld.ts';

/**
 * The page's policy (CSP Level 3): scripts, styles and fetches from this origin only; images from
 * this origin or `data:` (Swagger UI's stylesheet draws its icons as data URIs); no <base>, no
 * framing. The header rules (headers.ts) send it, with `Referrer-Policy: no-referrer`.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface DocsPageInput {
  /** The page title, e.g. "Lumen Galleries public API". */
  title: string;
  /** Stylesheets and scripts in load order, as URLs relative to /docs (see `pageAssets`). */
  assets: { styles: readonly string[]; scripts: readonly string[] };
  /** The product as schema.org JSON-LD, embedded for search engines and agents that read the page. */
  jsonLd?: unknown;
}

/**
 * The page's HTML. Every URL in it is relative, so it works wherever the service is mounted and
 * whatever `{base}` says: `docs/x.js` and `openapi.json` resolve against /docs to /docs/x.js and /openapi.json.
 */
export function buildDocsPage({ title, assets, jsonLd }: DocsPageInput): string {
  const name = escapeHtml(title);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${name}: API reference</title>`,
    // No favicon request: the service serves none.
    '<link rel="icon" href="data:,">',
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...(jsonLd === undefined ? [] : [`<script type="application/ld+json">${jsonLdScriptText(jsonLd)}</script>`]),
    '</head>',
    '<body>',
    '<main id="reference">',
    `<noscript><p>${name}: this reference renders the <a href="openapi.json">OpenAPI document</a> with JavaScript. ` +
      'Without it, read the document itself or <a href="llms.txt">llms.txt</a>.</p></noscript>',
    '</main>',
    ...assets.scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
