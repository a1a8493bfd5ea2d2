/**
 * @module llms-full.txt: llms.txt's page with every fact written out instead of linked: the
 * overview, every resource, every start option with its approval rule, then where the API is.
 */
import { API_CATALOG_PATH, API_PATH, DOCS_PATH, LLMS_PATH, MCP_PATH, OPENAPI_PATH, PRODUCT_PATH, SERVER_CARD_PATH } from '../route.ts';
import { llmsIntro, type LlmsContext } from './llms.ts';
import { factsSections, linkItem as item, md } from './markdown.ts';

export function buildLlmsFullText({ base, facts, docsPage, mcp: { toolNames } }: LlmsContext): string {
  return [
    `# ${md(facts.product.name)}\n`,
    `> ${md(facts.product.summary)}\n`,
    `${llmsIntro(base, facts)}\n`,
    factsSections(facts),
    '## API\n',
    [
      item('API index', `${base}${API_PATH}`, 'name, version and links to every endpoint, as JSON.'),
      item('Product facts', `${base}${PRODUCT_PATH}`, 'these facts as JSON; as Markdown with `Accept: text/markdown`.'),
      item('OpenAPI document', `${base}${OPENAPI_PATH}`, 'the authoritative contract (OpenAPI 3.1).'),
      ...(docsPage
        ? [item('API reference', `${base}${DOCS_PATH}`, 'the OpenAPI document and the MCP endpoint as a page for people.')]
        : []),
      item('MCP endpoint', `${base}${MCP_PATH}`, `Streamable HTTP, stateless, read-only tools: ${toolNames.join(', ')}.`),
      item('MCP server card', `${base}${SERVER_CARD_PATH}`, 'how to connect to the MCP endpoint, as JSON.'),
      item('API catalog', `${base}${API_CATALOG_PATH}`, 'RFC 9727 API catalog (Linkset).'),
      item('llms.txt', `${base}${LLMS_PATH}`, 'the short version of this page.'),
    ].join('\n'),
    '',
  ].join('\n');
}
