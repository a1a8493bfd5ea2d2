/**
 * @module llms.txt (https://llmstxt.org): the facts as a short Markdown page for language models
 * and for people. An H1 with the product name, a blockquote with the summary, a paragraph, then
 * H2 sections listing `[title](url): note` links; "Optional" holds what may be skipped.
 */
import { problemDescription } from '../contract/problems.ts';
import { API_PATH, DOCS_PATH, LLMS_FULL_PATH, MCP_PATH, OPENAPI_PATH, problemPath, PRODUCT_PATH } from '../route.ts';
import { PROBLEM_CODES } from '../contract/problem-codes.ts';
import type { Product } from '../facts/schema.ts';
import { agentRule, approvalRule, approvalSentences, neverReturnedPhrase, privateContractSentence } from '../facts/product-rules.ts';
import { linkItem as item, md } from './markdown.ts';

const section = (heading: string, items: string[]) => `## ${heading}\n\n${items.join('\n')}\n`;

/** The paragraph after the summary: what the API is and is not, where its contract is, the product's own rules. */
export function llmsIntro(base: string, facts: Product): string {
  const never = neverReturnedPhrase(facts);
  return [
    `This is the public, read-only API of ${md(facts.product.name)}: reviewed facts about the product (last reviewed ` +
      `on ${facts.product.reviewedOn}) as typed JSON and as MCP tools. ` +
      `It takes no credentials${never ? ` and never returns ${md(never)}` : ''}.`,
    'Requests are rate-limited per client; the RateLimit headers of every answer give the quota and what remains.',
    `The contract is the OpenAPI document at ${base}${OPENAPI_PATH}.`,
    md(privateContractSentence(facts)),
    md(approvalSentences(facts)),
    agentRule(facts),
  ]
    .filter(Boolean)
    .join(' ');
}

/** The front door's pages, once served: llms-full.txt always, the docs page while it is on. */
/** What llms.txt and llms-full.txt are built from: the build context's parts they read. */
export interface LlmsContext {
  base: string;
  facts: Product;
  /** Whether the docs page is served: the link to it depends on it. */
  docsPage: boolean;
  mcp: { toolNames: readonly string[] };
}

export function buildLlmsText({ base, facts, docsPage, mcp: { toolNames } }: LlmsContext): string {
  const { product } = facts;
  return [
    `# ${md(product.name)}\n`,
    `> ${md(product.summary)}\n`,
    `${llmsIntro(base, facts)}\n`,
    section('API', [
      item('API index', `${base}${API_PATH}`, 'name, version and links to every endpoint, as JSON.'),
      item('Product facts', `${base}${PRODUCT_PATH}`, 'the reviewed facts, the public resources and the start options, as JSON.'),
      item('OpenAPI document', `${base}${OPENAPI_PATH}`, 'the authoritative contract (OpenAPI 3.1).'),
      ...(docsPage
        ? [item('API reference', `${base}${DOCS_PATH}`, 'the OpenAPI document and the MCP endpoint as a page for people.')]
        : []),
      item('MCP endpoint', `${base}${MCP_PATH}`, `Streamable HTTP, stateless, read-only tools: ${toolNames.join(', ')}.`),
    ]),
    section(
      'Resources',
      facts.resources.map(({ title, url, description }) => item(title, url, md(description))),
    ),
    section(
      'Start options',
      facts.startOptions.map((option) => item(option.title, option.url, md(`${option.description} ${approvalRule(option, facts)}`))),
    ),
    section('Optional', [
      item('llms-full.txt', `${base}${LLMS_FULL_PATH}`, 'every fact of this page written out in full, as one Markdown page.'),
      ...PROBLEM_CODES.map((code) =>
        item(`Problem: ${problemDescription(code).title}`, `${base}${problemPath(code)}`, problemDescription(code).description),
      ),
    ]),
  ].join('\n');
}
