/**
 * @module llms.txt (https://llmstxt.org): the facts as a short Markdown page for language models
 * and for people. An H1 with the product name, a blockquote with the summary, a paragraph, then
 * H2 sections listing `[title](url): note` links; "Optional" holds what may be skipped.
 */
import { problemDescription } from '../problems.ts';
import { API_PATH, MCP_PATH, OPENAPI_PATH, problemPath, PRODUCT_PATH } from '../route.ts';
import { PROBLEM_CODES, type Product } from '../schemas.ts';

/** One line of text: Markdown needs no line breaks inside a list item or a blockquote. */
const inline = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A list item; brackets in the title and parentheses or spaces in the URL would end the link early. */
function item(title: string, url: string, note: string): string {
  const label = inline(title).replace(/([[\]\\])/g, '\\$1');
  const target = url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `- [${label}](${target}): ${inline(note)}`;
}

const section = (heading: string, items: string[]) => `## ${heading}\n\n${items.join('\n')}\n`;

export function buildLlmsText(base: string, facts: Product, toolNames: readonly string[]): string {
  const { product } = facts;
  const intro =
    `This is the public, read-only API of ${inline(product.name)}: reviewed facts about the product (last reviewed ` +
    `on ${product.reviewedOn}) as typed JSON and as MCP tools. It takes no credentials and never returns galleries, ` +
    'clients, accounts, sessions or tokens. Requests are rate-limited per client; the RateLimit headers of every ' +
    `answer give the quota and what remains. The contract is the OpenAPI document at ${base}${OPENAPI_PATH}. ` +
    "Creating a gallery needs a person's approval: an agent may show such a start option, never take it for someone.";
  return [
    `# ${inline(product.name)}\n`,
    `> ${inline(product.summary)}\n`,
    `${intro}\n`,
    section('API', [
      item('API index', `${base}${API_PATH}`, 'name, version and links to every endpoint, as JSON.'),
      item('Product facts', `${base}${PRODUCT_PATH}`, 'the reviewed facts, the public resources and the start options, as JSON.'),
      item('OpenAPI document', `${base}${OPENAPI_PATH}`, 'the authoritative contract (OpenAPI 3.1).'),
      item('MCP endpoint', `${base}${MCP_PATH}`, `Streamable HTTP, stateless, read-only tools: ${toolNames.join(', ')}.`),
    ]),
    section('Resources', facts.resources.map(({ title, url, description }) => item(title, url, description))),
    section(
      'Start options',
      facts.startOptions.map(({ title, url, description, requiresHumanApproval }) =>
        item(title, url, `${inline(description)} ${requiresHumanApproval ? "Needs a person's approval first." : 'Needs no approval.'}`),
      ),
    ),
    section(
      'Optional',
      PROBLEM_CODES.map((code) => item(`Problem: ${problemDescription(code).title}`, `${base}${problemPath(code)}`, problemDescription(code).description)),
    ),
  ].join('\n');
}
