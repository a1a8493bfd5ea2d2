/**
 * Facts text lands in Markdown as written: rendered by a CommonMark renderer (marked, GFM on), every
 * document made from facts full of markup characters shows the texts exactly and holds no element of
 * theirs (`<script>`, `<balance>`), no emphasis, no link, no heading and no list that the facts did not ask for.
 */
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { buildLlmsFullText } from '../../src/discovery/llms-full.ts';
import { buildLlmsText } from '../../src/discovery/llms.ts';
import { md, mdUrl, productMarkdown } from '../../src/discovery/markdown.ts';
import { rootMarkdown } from '../../src/discovery/root.ts';
import { buildSkillMarkdown } from '../../src/discovery/skill.ts';
import { buildDocuments } from '../../src/mcp/documents.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { BASE, sampleFacts } from '../support/handler.ts';

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };
/** What a reader sees of rendered HTML: the text, tags dropped, entities read. */
const shown = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity]!);
const render = (markdown: string) => marked.parse(markdown, { async: false, gfm: true }) as string;

const HOSTILE = [
  'Embed it with <script src="widget.js"></script> on any page.',
  'Keep your <balance> and <b>bold</b> words.',
  '*Not emphasis* and _not either_ and **nor this** and ~~not struck~~.',
  'A [fake](https://evil.example/) link, ![an image](x.png) and `code`.',
  'Back\\slash, &amp; an entity, snake_case_name and 5 * 3 = 15.',
  '# Not a heading',
  '- Not a list item',
  '1. Not an ordered item',
  '+ Plus',
  '> Not a quote',
  'Closing hashes ##',
];

describe('md', () => {
  it.each(HOSTILE)('renders %j as written, in one paragraph of text alone', (text) => {
    const html = render(md(text));
    expect(html.trim()).toMatch(/^<p>[\s\S]*<\/p>$/);
    // GFM shows a bare URL as a link to itself: the text reads the same.
    const inner = html.replace(/^<p>|<\/p>\n?$/g, '').replace(/<a href="([^"]*)">\1<\/a>/g, '$1');
    expect(inner).not.toMatch(/<[a-z]/i);
    expect(shown(html).trim()).toBe(text);
  });

  it('leaves ordinary words, intraword underscores and apostrophes as they are', () => {
    expect(md("The studio's snake_case names, 14-day trial: 99.")).toBe("The studio's snake_case names, 14-day trial: 99.");
  });
});

/** URLs the facts check accepts (absolute http(s)) that would be markup if written raw. */
const HOSTILE_URLS = [
  'https://x.com/<b>bold</b>',
  'https://x.com/*not*/_emphasis_',
  'https://x.com/a?q=&lt;b&gt;',
  'https://x.com/[x](https://evil.example/)',
  'https://x.com/`code`',
];

describe('mdUrl', () => {
  it.each(HOSTILE_URLS)('writes %j as a link to itself and nothing else', (url) => {
    const html = render(`- URL: ${mdUrl(url)}`);
    const links = [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)];
    expect(links, html).toHaveLength(1);
    // Its text is the URL a parser reads from what was written.
    expect(new URL(shown(links[0]![2]!)).href).toBe(new URL(url).href);
    expect(html.replace(/<a href="[^"]*">[^<]*<\/a>/, '')).not.toMatch(/<(?!\/?(ul|li)>)[a-z/]/i);
  });

  it('leaves a URL without markup characters as written', () => {
    for (const url of ['https://www.example.com/', 'https://docs.example.com/getting-started', 'https://x.com/a_b?c=1&d=2#e'])
      expect(mdUrl(url)).toBe(url);
  });
});

function hostileFacts() {
  const facts = sampleFacts();
  facts.product.name = 'Lumen <Galleries> *Pro*';
  facts.product.summary = HOSTILE[0]!;
  facts.product.capabilities = [...HOSTILE];
  facts.product.notOffered = [HOSTILE[1]!, HOSTILE[5]!];
  facts.resources[1]!.title = 'Docs [beta]';
  facts.resources[1]!.description = HOSTILE[1]!;
  facts.startOptions[0]!.title = '<balance> check';
  facts.startOptions[0]!.description = HOSTILE[2]!;
  facts.startOptions[1]!.url = HOSTILE_URLS[0]!;
  facts.resources[2]!.url = HOSTILE_URLS[1]!;
  facts.product.contact = { url: HOSTILE_URLS[0]!, email: '_support_@example.com' };
  return facts;
}

describe('every Markdown document made from the facts', () => {
  const facts = hostileFacts();
  const documents: [string, string][] = [
    ['llms.txt', buildLlmsText({ base: BASE, facts, docsPage: true, mcp: { toolNames: ['search'] } })],
    ['llms-full.txt', buildLlmsFullText({ base: BASE, facts, docsPage: true, mcp: { toolNames: ['search'] } })],
    ['the skill', buildSkillMarkdown(BASE, facts, TOOLS).replace(/^---[\s\S]*?---\n/, '')],
    ['the Markdown answer', productMarkdown({ facts })],
    ['the root as Markdown', rootMarkdown({ base: BASE, facts, docsPage: true })],
    ...buildDocuments(BASE, facts).map((document): [string, string] => [`the MCP document ${document.id}`, document.text]),
  ];

  it.each(documents)('%s holds no element of the facts and shows their texts as written', (_, markdown) => {
    const html = render(markdown);
    expect(html).not.toMatch(/<(script|balance|b|em|strong|del|img)\b/);
    expect(html).not.toMatch(/<a href="[^"]*(%5C|\\)/i);
    expect(html).not.toContain('<code>code</code>');
    expect(html).not.toMatch(/<a href="https:\/\/evil\.example\/">fake/);
    const text = shown(html);
    for (const written of ['<balance>', '<script src="widget.js"></script>', 'Lumen <Galleries> *Pro*'])
      if (markdown.includes(md(written))) expect(text).toContain(written);
  });

  it('shows the contact address as written', () => {
    for (const markdown of [
      productMarkdown({ facts }),
      buildLlmsFullText({ base: BASE, facts, docsPage: true, mcp: { toolNames: ['search'] } }),
    ])
      expect(shown(render(markdown))).toContain('- E-mail: _support_@example.com'.slice(10));
  });

  it('shows the hostile summary and name in each of them', () => {
    for (const [name, markdown] of documents.slice(0, 4)) {
      const text = shown(render(markdown));
      expect(text, name).toContain('Lumen <Galleries> *Pro*');
      expect(text, name).toContain('<script src="widget.js"></script>');
    }
  });
});
