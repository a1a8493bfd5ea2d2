/**
 * @module What the discovery documents are known by (media types, profile and schema URIs) and the
 * server card's text limit, apart from their schemas (schemas.ts) so that the route table and the
 * documents' builders use them without building any schema.
 */

/** RFC 9727 section 4.2: the Linkset media type (RFC 9264 section 4.2) with the api-catalog profile. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The draft's limit on `description` and `title`. */
export const SERVER_CARD_TEXT_MAX = 100;
