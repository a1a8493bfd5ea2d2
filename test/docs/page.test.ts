/**
 * The docs page's HTML and policy, read as a browser's CSP check would: every script and stylesheet
 * a same-origin file, nothing inline, every URL relative; the policy exactly the contract's.
 */
import { describe, expect, it } from 'vitest';
import { DOCS_ASSETS, pageAssets } from '../../src/docs/assets.ts';
import { buildDocsPage, DOCS_CSP } from '../../src/docs/page.ts';
import { CONTRACT_DOCS_CSP } from '../support/cases.ts';

const html = buildDocsPage({ title: 'Lumen <Galleries> & Co public API', assets: pageAssets() });

describe('buildDocsPage', () => {
  it('loads every asset, stylesheets in the head and scripts at the end, by relative URL', () => {
    const styles = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((match) => match[1]);
    const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((match) => match[1]);
    expect([...styles, ...scripts].sort()).toEqual(DOCS_ASSETS.map((asset) => asset.path.slice(1)).sort());
    expect(scripts.at(-1)).toMatch(/^docs\/docs\.[0-9a-f]{12}\.js$/);
    expect(html.indexOf('</head>')).toBeGreaterThan(html.lastIndexOf('rel="stylesheet"'));
    expect(html.indexOf('<script')).toBeGreaterThan(html.indexOf('<main id="reference">'));
  });

  it('holds no inline script or style and no absolute URL', () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/<script[^>]*>[^<]/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(?:href|src)="(?:[a-z]+:\/\/|\/\/)/i);
    // The icon is a data: URL, so the browser asks no /favicon.ico.
    expect(html).toContain('<link rel="icon" href="data:,">');
  });

  it('escapes the title', () => {
    expect(html).toContain('<title>Lumen &lt;Galleries&gt; &amp; Co public API: API reference</title>');
    expect(html).not.toContain('<Galleries>');
  });

  it('says what it needs without JavaScript, linking the document itself', () => {
    expect(html).toMatch(/<noscript>.*href="openapi\.json".*<\/noscript>/);
  });
});

describe('DOCS_CSP', () => {
  const directives = Object.fromEntries(
    DOCS_CSP.split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

  it('is the contract’s policy: this origin only, no inline script, no eval, no framing', () => {
    expect(directives).toEqual(CONTRACT_DOCS_CSP);
  });
});
