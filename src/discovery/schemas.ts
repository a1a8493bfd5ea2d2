/**
 * @module The valibot schemas of the discovery documents: the API catalog, llms.txt and the MCP
 * server card. Like ../schemas.ts, they import nothing of ours.
 */
import * as v from 'valibot';

const url = v.pipe(v.string(), v.url('must be an absolute URL'));

/** RFC 9727 section 4.2: the Linkset media type (RFC 9264 section 4.2) with the api-catalog profile. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

/** RFC 9264 section 4.2.2: each relation type names an array of target objects. */
const Targets = v.pipe(v.array(v.object({ href: url, type: v.string(), title: v.optional(v.string()) })), v.minLength(1));

export const ApiCatalog = v.pipe(
  v.object({
    linkset: v.array(
      v.object({
        anchor: url,
        'service-desc': Targets,
        'service-doc': v.optional(Targets),
        status: Targets,
        'service-meta': Targets,
      }),
    ),
  }),
  v.title('ApiCatalog'),
  v.description('RFC 9727 API catalog: a Linkset (RFC 9264) with one context, the API, and its description, documentation, status and llms.txt.'),
);

export const LlmsText = v.pipe(
  v.string(),
  v.title('LlmsText'),
  v.description('llms.txt (llmstxt.org): the product name, a summary, then Markdown lists of links to the API, the resources, the start options and the problem types.'),
);

export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The draft's limit on `description` and `title`. */
export const SERVER_CARD_TEXT_MAX = 100;

export const ServerCard = v.pipe(
  v.object({
    $schema: v.literal(SERVER_CARD_SCHEMA),
    name: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/), v.maxLength(200)),
    title: v.pipe(v.string(), v.minLength(1), v.maxLength(SERVER_CARD_TEXT_MAX)),
    version: v.string(),
    description: v.pipe(v.string(), v.minLength(1), v.maxLength(SERVER_CARD_TEXT_MAX)),
    websiteUrl: v.optional(url),
    remotes: v.array(
      v.object({
        type: v.literal('streamable-http'),
        url,
        supportedProtocolVersions: v.array(v.string()),
      }),
    ),
  }),
  v.title('McpServerCard'),
  v.description('MCP Server Card (experimental draft, SEP-2127): who the /mcp endpoint is and how to connect to it.'),
);

export type ApiCatalog = v.InferOutput<typeof ApiCatalog>;
export type ServerCard = v.InferOutput<typeof ServerCard>;
