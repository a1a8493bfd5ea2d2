/**
 * @module The host's root (`GET /`): where a client given only the host finds everything. A small
 * JSON document linking every entry point; its `Link` header fields (RFC 8288), for a client that
 * reads only headers, are the route table's `links` (see headers.ts).
 */
import { API_CATALOG_PATH, API_PATH, DOCS_PATH, LLMS_FULL_PATH, LLMS_PATH, MCP_PATH, OPENAPI_PATH, SERVER_CARD_PATH } from '../route.ts';
import type { Product } from '../schemas.ts';
import type { RootDocument } from './schemas.ts';

export function buildRoot(base: string, facts: Product, { docsPage }: { docsPage: boolean }): RootDocument {
  return {
    name: `${facts.product.name} public API`,
    description: `The public, read-only API of ${facts.product.name}: reviewed product facts as JSON and through MCP, with no credentials needed.`,
    links: {
      api: `${base}${API_PATH}`,
      ...(docsPage ? { docs: `${base}${DOCS_PATH}` } : {}),
      openapi: `${base}${OPENAPI_PATH}`,
      mcp: `${base}${MCP_PATH}`,
      apiCatalog: `${base}${API_CATALOG_PATH}`,
      llmsTxt: `${base}${LLMS_PATH}`,
      llmsFullTxt: `${base}${LLMS_FULL_PATH}`,
      mcpServerCard: `${base}${SERVER_CARD_PATH}`,
    },
  };
}
