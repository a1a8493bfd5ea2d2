/**
 * @module The facts as Markdown: the answer to `GET /api/v1/product` with an Accept that prefers
 * Markdown or plain text, and the body of llms-full.txt. Every fact is written out: the overview,
 * each resource, each start option with its approval rule.
 */
import { approvalRule, needPhrase } from '../facts/product-rules.ts';
import type { Product } from '../facts/schema.ts';
// Markdown needs no line breaks inside a list item or a blockquote: text is set on one line.
import { inline } from '../util/text.ts';

/**
 * Facts text as Markdown that reads exactly as written, on one line (CommonMark 0.31, "Backslash escapes"):
 * what would start markup is escaped: `\`, `` ` ``, `*`, `~`, `[`, `]`, `<`, `>` everywhere (so `<balance>`
 * or `<script>` stays text), `_` at a word's edge, `&` before an entity name, and `#`, `-`, `+`, `=` or
 * `1.` at the start (a heading, a list) or `#` at the end (a heading's closing sequence).
 */
export function md(text: string): string {
  return inline(text)
    .replace(/[\\`*~[\]<>]/g, '\\$&')
    .replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')
    .replace(/&(?=#?\w+;)/g, '\\&')
    .replace(/^([#+=-])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/(\s)(#+)$/, '$1\\$2');
}

/** `c` percent-encoded (RFC 3986 section 2.1), as a URL parser writes it. */
const percent = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** A link with facts text as its title; parentheses or spaces in the URL would end it early. */
export function link(title: string, url: string): string {
  return `[${md(title)}](${url.replace(/[()<>\s]/g, percent)})`;
}

/**
 * A URL from the facts as Markdown text: as written when Markdown reads nothing in it as markup (what
 * `md` would leave alone), otherwise as an autolink (CommonMark 0.31, "Autolinks"), inside which
 * nothing is markup, with `<`, `>` and spaces, which would end it, percent-encoded as a URL parser
 * encodes them. So `https://x.com/<b>` is `<https://x.com/%3Cb%3E>`, never an element.
 */
export function mdUrl(url: string): string {
  return md(url) === url ? url : `<${url.replace(/[<>\s]/g, percent)}>`;
}

/** A `- [title](url): note` list item, as llms.txt lists links; the note is Markdown already (`md` for facts text). */
export const linkItem = (title: string, url: string, note: string) => `- ${link(title, url)}: ${inline(note)}`;

const list = (items: readonly string[]) => items.map((item) => `- ${md(item)}`).join('\n');
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** The product's own public contact, as list items. */
const contactLines = ({ url, email }: NonNullable<Product['product']['contact']>) =>
  [...(url ? [`- Page: ${mdUrl(url)}`] : []), ...(email ? [`- E-mail: ${md(email)}`] : [])].join('\n');

/** The facts under H2 headings (Overview, Resources, Start options), each start option under an H3. */
export function factsSections(facts: Product): string {
  const { product, resources, startOptions } = facts;
  const optional = (heading: string, items: readonly string[] | undefined) => (items ? [`### ${heading}\n\n${list(items)}\n`] : []);
  return [
    '## Overview\n',
    `These facts were last reviewed on ${product.reviewedOn}.\n`,
    `### Audiences\n\n${list(product.audiences)}\n`,
    `### Capabilities\n\n${list(product.capabilities)}\n`,
    `### What the public API does not do\n\n${list(product.notOffered)}\n`,
    ...optional('Private data it never returns', product.neverReturned),
    ...optional(
      "Actions that need a person's approval",
      product.actionsNeedingApproval?.map((action) => `${needPhrase(action)} (id: ${action.id})`),
    ),
    ...(product.contact ? [`### Contact\n\n${contactLines(product.contact)}\n`] : []),
    ...optional('Outside this public API (the private contract)', product.privateContract),
    '## Resources\n',
    `${resources
      .map(({ id, kind, title, url, description }) => linkItem(title, url, `${md(description)} (kind: ${kind}${id ? `, id: ${id}` : ''})`))
      .join('\n')}\n`,
    '## Start options\n',
    ...startOptions.map((option) =>
      [
        `### ${md(option.title)}\n`,
        `${md(option.description)}\n`,
        `- Id: ${option.id}`,
        `- URL: ${mdUrl(option.url)}`,
        // v1's flag, written only for the facts that give it.
        ...(option.createsGallery === undefined ? [] : [`- Creates a gallery: ${yesNo(option.createsGallery)}`]),
        ...(option.performs ? [`- Performs: ${option.performs.join(', ')}`] : []),
        `- Approval: ${md(approvalRule(option, facts))}\n`,
      ].join('\n'),
    ),
  ].join('\n');
}

/** The product's Markdown representation: the same facts as the JSON body. */
export function productMarkdown({ facts }: { facts: Product }): string {
  return `# ${md(facts.product.name)}\n\n> ${md(facts.product.summary)}\n\n${factsSections(facts)}`;
}
