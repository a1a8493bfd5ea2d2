/**
 * @module The host's root (`GET /`): where a client given only the host finds everything. A small
 * JSON document linking every entry point, and the same as `Link` header fields (RFC 8288) for a
 * client that reads only headers.
 */
import { API_CATALOG_PATH, API_PATH, DOCS_PATH, LLMS_FULL_PATH, LLMS_PATH, MCP_PATH, OPENAPI_PATH, SERVER_CARD_PATH } from '../route.ts';
import type { Product } from '../schemas.ts';
import { SERVER_CARD_TYPE, type RootDocument } from './schemas.ts';

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

/**
 * The root's `Link` field value: the API catalog (RFC 9727 section 3), the OpenAPI document and the
 * docs page (RFC 8631 service-desc, service-doc) and the MCP server card (describedby, W3C POWDER's
 * relation in the IANA registry). It replaces, not adds to, the service-desc link every answer carries.
 */
export function rootLinkHeader(base: string, { docsPage }: { docsPage: boolean }): string {
  return [
    `<${base}${API_CATALOG_PATH}>; rel="api-catalog"; type="application/linkset+json"`,
    `<${base}${OPENAPI_PATH}>; rel="service-desc"; type="application/json"`,
    ...(docsPage ? [`<${base}${DOCS_PATH}>; rel="service-doc"; type="text/html"`] : []),
    `<${base}${SERVER_CARD_PATH}>; rel="describedby"; type="${SERVER_CARD_TYPE}"`,
  ].join(', ');
}
