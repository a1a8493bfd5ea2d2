/**
 * /llms.txt parsed as llmstxt.org prescribes: an H1 first, a blockquote summary, free text without
 * headings, then H2 sections whose content is a list of `[title](url): note` links. Every URL is
 * one the facts or the service give, and the page follows the facts it was built from.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pathsOf } from '../../src/route.ts';
import { ROUTES } from '../../src/routes.ts';
import type { Product } from '../../src/facts/schema.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';

interface LlmsTxt {
  title: string;
  summary: string;
  details: string[];
  sections: { heading: string; links: { title: string; url: string; note?: string }[] }[];
}

const LINK_ITEM = /^- \[((?:[^\]\\]|\\.)+)\]\(([^()\s]+)\)(?:: (.+))?$/;

/** Parses the llms.txt layout, failing on anything it does not allow. */
function parseLlmsTxt(text: string): LlmsTxt {
  const lines = text.split('\n');
  const title = /^# (\S.*)$/.exec(lines[0]!)?.[1];
  if (!title) throw new Error(`the first line is not an H1: ${lines[0]}`);
  let at = 1;
  while (lines[at] === '') at++;
  const summary = /^> (\S.*)$/.exec(lines[at] ?? '')?.[1];
  if (!summary) throw new Error(`no blockquote after the H1: ${lines[at]}`);
  const details: string[] = [];
  for (at++; at < lines.length && !lines[at]!.startsWith('## '); at++) {
    if (/^#/.test(lines[at]!)) throw new Error(`a heading before the H2 sections: ${lines[at]}`);
    if (lines[at]) details.push(lines[at]!);
  }
  const sections: LlmsTxt['sections'] = [];
  for (; at < lines.length; at++) {
    const line = lines[at]!;
    if (line === '') continue;
    const heading = /^## (\S.*)$/.exec(line)?.[1];
    if (heading) {
      sections.push({ heading, links: [] });
      continue;
    }
    const item = LINK_ITEM.exec(line);
    if (!item) throw new Error(`not a link list item in section ${sections.at(-1)?.heading}: ${line}`);
    sections.at(-1)!.links.push({ title: item[1]!.replace(/\\(.)/g, '$1'), url: item[2]!, note: item[3] });
  }
  return { title, summary, details, sections };
}

async function llmsOf(facts: Product) {
  const handle = await makeHandler({ facts });
  const response = await handle(get('/llms.txt'));
  return { response, text: await response.text() };
}

describe('GET /llms.txt', () => {
  afterAll(closeHandlers);

  it('is Markdown in the llms.txt layout, its sections in the contract’s order', async () => {
    const facts = sampleFacts();
    const { response, text } = await llmsOf(facts);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('etag')).toMatch(/^"/);
    const page = parseLlmsTxt(text);
    expect(page.title).toBe(facts.product.name);
    expect(page.summary).toBe(facts.product.summary);
    expect(page.details.join(' ')).toMatch(/read-only/i);
    expect(page.details.join(' ')).toMatch(/credential/i);
    expect(page.details.join(' ')).toMatch(/rate-limit/i);
    expect(page.details.join(' ')).toContain(`${BASE}/openapi.json`);
    expect(page.details.join(' ')).toMatch(/gallery needs a person's approval/i);
    expect(page.sections.map((section) => section.heading)).toEqual(['API', 'Resources', 'Start options', 'Optional']);
    for (const section of page.sections) for (const link of section.links) expect(link.note, link.url).toMatch(/\S/);
  });

  it('lists the API, every resource, every start option with its approval, and the problem types', async () => {
    const facts = sampleFacts();
    const [api, resources, starts, optional] = parseLlmsTxt((await llmsOf(facts)).text).sections;
    expect(api!.links.map((link) => link.url)).toEqual([
      `${BASE}/api/v1`,
      `${BASE}/api/v1/product`,
      `${BASE}/openapi.json`,
      `${BASE}/docs`,
      `${BASE}/mcp`,
    ]);
    expect(resources!.links.map(({ title, url }) => ({ title, url }))).toEqual(facts.resources.map(({ title, url }) => ({ title, url })));
    expect(starts!.links.map((link) => link.url)).toEqual(facts.startOptions.map((option) => option.url));
    facts.startOptions.forEach((option, index) => {
      expect(starts!.links[index]!.note).toMatch(option.requiresHumanApproval ? /needs a person's approval/i : /needs no approval/i);
    });
    expect(optional!.links[0]!.url).toBe(`${BASE}/llms-full.txt`);
    expect(optional!.links.slice(1).every((link) => link.url.startsWith(`${BASE}/problems/`))).toBe(true);
  });

  it('holds no URL that is not the facts’ or the service’s', async () => {
    const facts = sampleFacts();
    const { text } = await llmsOf(facts);
    const known = new Set([
      ...facts.resources.map((resource) => resource.url),
      ...facts.startOptions.map((option) => option.url),
      ...ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => `${BASE}${path}`)),
    ]);
    const urls = [...text.matchAll(/https?:\/\/[^\s)]+/g)].map(([url]) => url.replace(/[.,;:]$/, ''));
    expect(urls.length).toBeGreaterThan(10);
    expect(urls.filter((url) => !known.has(url))).toEqual([]);
  });

  it('follows the facts it is built from', async () => {
    const before = await llmsOf(sampleFacts());
    const changed = sampleFacts();
    changed.product.name = 'Lumen Studio';
    changed.resources[1]!.title = 'Developer guide [v2]';
    changed.startOptions[0]!.requiresHumanApproval = true;
    const after = await llmsOf(changed);
    expect(after.response.headers.get('etag')).not.toBe(before.response.headers.get('etag'));
    const page = parseLlmsTxt(after.text);
    expect(page.title).toBe('Lumen Studio');
    expect(page.sections[1]!.links[1]!.title).toBe('Developer guide [v2]');
    expect(page.sections[2]!.links[0]!.note).toMatch(/needs a person's approval/i);
    expect(after.text).not.toContain('# Lumen Galleries');
  });

  it('keeps a multi-line fact on one line of its list item', async () => {
    const facts = sampleFacts();
    facts.resources[0]!.description = 'First line.\nSecond line.';
    const page = parseLlmsTxt((await llmsOf(facts)).text);
    expect(page.sections[1]!.links[0]!.note).toBe('First line. Second line.');
  });
});
