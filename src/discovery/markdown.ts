/**
 * @module The facts as Markdown: the answer to `GET /api/v1/product` with an Accept that prefers
 * Markdown or plain text, and the body of llms-full.txt. Every fact is written out: the overview,
 * each resource, each start option with its approval rule.
 */
import { approvalRule, needPhrase } from '../facts/product-rules.ts';
import type { Product } from '../facts/schema.ts';

/** One line of text: Markdown needs no line breaks inside a list item or a blockquote. */
export const inline = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A link; brackets in the title and parentheses or spaces in the URL would end it early. */
export function link(title: string, url: string): string {
  const label = inline(title).replace(/([[\]\\])/g, '\\$1');
  const target = url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `[${label}](${target})`;
}

/** A `- [title](url): note` list item, as llms.txt lists links. */
export const linkItem = (title: string, url: string, note: string) => `- ${link(title, url)}: ${inline(note)}`;

const list = (items: readonly string[]) => items.map((item) => `- ${inline(item)}`).join('\n');
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

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
    ...optional('Outside this public API (the private contract)', product.privateContract),
    '## Resources\n',
    resources
      .map(({ id, kind, title, url, description }) => linkItem(title, url, `${description} (kind: ${kind}${id ? `, id: ${id}` : ''})`))
      .join('\n') + '\n',
    '## Start options\n',
    ...startOptions.map((option) =>
      [
        `### ${inline(option.title)}\n`,
        `${inline(option.description)}\n`,
        `- Id: ${option.id}`,
        `- URL: ${option.url}`,
        // v1's flag, written only for the facts that give it.
        ...(option.createsGallery === undefined ? [] : [`- Creates a gallery: ${yesNo(option.createsGallery)}`]),
        ...(option.performs ? [`- Performs: ${option.performs.join(', ')}`] : []),
        `- Approval: ${approvalRule(option, facts)}\n`,
      ].join('\n'),
    ),
  ].join('\n');
}

/** The product's Markdown representation: the same facts as the JSON body. */
export function productMarkdown(facts: Product): string {
  return `# ${inline(facts.product.name)}\n\n> ${inline(facts.product.summary)}\n\n${factsSections(facts)}`;
}
