/** @module The API index (`GET /api/v1`): where everything is, for a caller that starts from the API. */
import { TOOL_NAMES } from '../mcp/tools.ts';
import { MCP_PROTOCOL_VERSIONS } from '../mcp/versions.ts';
import {
  API_CATALOG_PATH,
  API_PATH,
  DOCS_PATH,
  HEALTH_PATH,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  problemPath,
  PRODUCT_PATH,
  SERVER_CARD_PATH,
  type BuildContext,
} from '../route.ts';
import type { ApiIndex } from '../contract/schemas.ts';

export function buildApiIndex({ base, facts, name, deprecation, docsPage }: BuildContext): ApiIndex {
  return {
    name,
    apiVersion: 'v1',
    description: facts.product.summary,
    links: {
      self: `${base}${API_PATH}`,
      health: `${base}${HEALTH_PATH}`,
      product: `${base}${PRODUCT_PATH}`,
      openapi: `${base}${OPENAPI_PATH}`,
      problems: `${base}${problemPath('api_route_not_found')}`,
      apiCatalog: `${base}${API_CATALOG_PATH}`,
      llmsTxt: `${base}${LLMS_PATH}`,
      mcpServerCard: `${base}${SERVER_CARD_PATH}`,
      ...(docsPage ? { docs: `${base}${DOCS_PATH}` } : {}),
    },
    mcp: { url: `${base}${MCP_PATH}`, transport: 'streamable-http', protocolVersions: MCP_PROTOCOL_VERSIONS, tools: TOOL_NAMES },
    ...(deprecation ? { deprecation: deprecation.index } : {}),
  };
}
