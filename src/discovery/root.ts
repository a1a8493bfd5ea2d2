/**
 * @module The host's root (`GET /`): where a client given only the host finds everything. A small
 * JSON document linking every entry point, or the same as Markdown for a client that prefers it;
 * its `Link` header fields (RFC 8288), for a client that reads only headers, are the route table's
 * `links` (see headers.ts).
 */
import {
  AI_CATALOG_PATH,
  API_CATALOG_PATH,
  API_PATH,
  DOCS_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  PRODUCT_PATH,
  SERVER_CARD_PATH,
  SITEMAP_PATH,
  SKILL_PATH,
} from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { linkItem, md } from './markdown.ts';
import type { RootDocument } from './schemas.ts';

/** One sentence naming the product (`name` as the document writes it: as is in JSON, escaped in Markdown). */
const description = (name: string) =>
  `The public, read-only API of ${name}: reviewed product facts as JSON and through MCP, with no credentials needed.`;

export function buildRoot({ base, facts, docsPage }: { base: string; facts: Product; docsPage: boolean }): RootDocument {
  return {
    name: `${facts.product.name} public API`,
    description: description(facts.product.name),
    links: {
      api: `${base}${API_PATH}`,
      product: `${base}${PRODUCT_PATH}`,
      ...(docsPage ? { docs: `${base}${DOCS_PATH}` } : {}),
      openapi: `${base}${OPENAPI_PATH}`,
      mcp: `${base}${MCP_PATH}`,
      apiCatalog: `${base}${API_CATALOG_PATH}`,
      llmsTxt: `${base}${LLMS_PATH}`,
      llmsFullTxt: `${base}${LLMS_FULL_PATH}`,
      mcpServerCard: `${base}${SERVER_CARD_PATH}`,
      sitemap: `${base}${SITEMAP_PATH}`,
      skill: `${base}${SKILL_PATH}`,
      aiCatalog: `${base}${AI_CATALOG_PATH}`,
    },
  };
}

/** The root as Markdown: the product's name, its summary, what the service is, and every entry point as a link. */
export function rootMarkdown({ base, facts, docsPage }: { base: string; facts: Product; docsPage: boolean }): string {
  const entries = [
    linkItem('API index', `${base}${API_PATH}`, 'name, version and links to every endpoint, as JSON.'),
    linkItem('Product facts', `${base}${PRODUCT_PATH}`, 'the reviewed facts as JSON, Markdown or schema.org JSON-LD (by Accept).'),
    linkItem('OpenAPI document', `${base}${OPENAPI_PATH}`, 'the authoritative contract (OpenAPI 3.1).'),
    ...(docsPage ? [linkItem('API reference', `${base}${DOCS_PATH}`, 'the contract as a page for people.')] : []),
    linkItem('MCP endpoint', `${base}${MCP_PATH}`, 'Streamable HTTP, stateless, read-only tools.'),
    linkItem('MCP server card', `${base}${SERVER_CARD_PATH}`, 'who the MCP endpoint is and how to connect.'),
    linkItem('API catalog', `${base}${API_CATALOG_PATH}`, 'RFC 9727 links to the API, its contract, documentation and health.'),
    linkItem('llms.txt', `${base}${LLMS_PATH}`, 'the facts as a short page for language models.'),
    linkItem('llms-full.txt', `${base}${LLMS_FULL_PATH}`, 'every fact written out.'),
    linkItem('Agent Skill', `${base}${SKILL_PATH}`, 'how an agent uses this service, as a SKILL.md.'),
    linkItem('AI catalog', `${base}${AI_CATALOG_PATH}`, 'the server card, the OpenAPI document, the skill and llms.txt, for agents.'),
    linkItem('Sitemap', `${base}${SITEMAP_PATH}`, 'every document for crawlers.'),
  ];
  return [
    `# ${md(facts.product.name)} public API\n`,
    `> ${md(facts.product.summary)}\n`,
    `${description(md(facts.product.name))}\n`,
    '## Entry points\n',
    `${entries.join('\n')}\n`,
  ].join('\n');
}
