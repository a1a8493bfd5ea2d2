/**
 * @module The route table: every path the service serves, declared once with everything about it:
 * its methods, how it is answered (a document's builder, health, the MCP endpoint, a docs file), its
 * media types, cache policy and links, whether it is counted, and its operation text and schema.
 * Dispatch, `Allow`, the response headers, the OpenAPI document and `isServedPath` all read it.
 */
import { buildApiIndex } from './api/api-index.ts';
import { buildAiCatalog } from './discovery/ai-catalog.ts';
import { buildApiCatalog } from './discovery/catalog.ts';
import { buildJsonLd } from './discovery/jsonld.ts';
import { buildLlmsFullText } from './discovery/llms-full.ts';
import { buildLlmsText } from './discovery/llms.ts';
import { productMarkdown } from './discovery/markdown.ts';
import { buildRobotsTxt } from './discovery/robots.ts';
import { buildRoot, rootMarkdown } from './discovery/root.ts';
import { API_CATALOG_TYPE, SERVER_CARD_TYPE } from './discovery/identifiers.ts';
import { buildSecurityTxt } from './discovery/security-txt.ts';
import { buildServerCard } from './discovery/server-card.ts';
import { buildSitemap } from './discovery/sitemap.ts';
import { buildSkillIndex, SKILL_NAME } from './discovery/skill.ts';
import { DOCS_ASSET_CACHE, DOCS_ASSETS, pageAssets } from './docs/assets.ts';
import { buildDocsPage } from './docs/page.ts';
import { NO_STORE, PUBLIC_CACHE, PUBLIC_MAX_AGE_SECONDS } from './http/headers.ts';
import { MCP_REFUSALS } from './mcp/gate.ts';
import { problemType } from './contract/problems.ts';
import {
  AI_CATALOG_PATH,
  API_CATALOG_PATH,
  API_PATH,
  DOCS_PATH,
  FACTS_SCHEMA_PATH,
  HEALTH_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  pathsOf,
  problemPath,
  PRODUCT_PATH,
  ROBOTS_PATH,
  ROOT_PATH,
  SECURITY_TXT_PATH,
  SERVER_CARD_PATH,
  SERVER_CARD_WELL_KNOWN_PATH,
  SITEMAP_PATH,
  SKILL_INDEX_PATH,
  SKILL_PATH,
  wellKnownSkillPath,
  type BuildContext,
  type Builder,
  type Method,
  type Route,
} from './route.ts';
import { PROBLEM_CODES } from './contract/problem-codes.ts';
import type { ProblemCode } from './contract/schemas.ts';

const JSON_TYPE = 'application/json';
const GET: readonly Method[] = ['GET', 'HEAD'];

const assetType = ({ asset }: Record<string, string>) => DOCS_ASSETS.find((each) => each.file === asset)!.contentType;
const skill: Builder = (context) => context.skill().text;
const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

export const ROUTES: Route[] = [
  {
    path: ROOT_PATH,
    methods: GET,
    answer: buildRoot,
    operationId: 'getRoot',
    summary: 'Where everything is',
    description:
      "The host's root, for a client given only the host: the product's name and links to every entry point, " +
      'also as `Link` header fields (RFC 8288): the API catalog, the OpenAPI document, the docs page, the MCP server card, ' +
      'the product as schema.org JSON-LD and this document as Markdown. JSON unless the Accept header prefers Markdown ' +
      '(`text/markdown`) or plain text (`text/plain`, the same Markdown); JSON wins ties. A browser (an Accept that prefers ' +
      '`text/html`) is sent to the docs page with 302 while the page is served.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.RootDocument,
    mediaType: JSON_TYPE,
    alternates: [
      { mediaType: 'text/markdown', body: ({ discovery }) => discovery.RootMarkdown, build: rootMarkdown },
      { mediaType: 'text/plain', body: ({ discovery }) => discovery.RootMarkdown, build: rootMarkdown },
    ],
    redirects: [{ mediaType: 'text/html', path: DOCS_PATH, docsPage: true }],
    cacheControl: PUBLIC_CACHE,
    links: ['api-catalog', 'service-doc', 'describedby', 'jsonLd', 'markdown'],
  },
  {
    path: API_PATH,
    methods: GET,
    answer: buildApiIndex,
    operationId: 'getApiIndex',
    summary: 'API index',
    description: 'Name, version and links to every endpoint, the OpenAPI document and the MCP endpoint with its tool names.',
    tag: 'v1',
    body: ({ answers }) => answers.ApiIndex,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
    // RFC 9727 section 3: the API links to its catalog.
    links: ['api-catalog'],
  },
  {
    path: HEALTH_PATH,
    methods: GET,
    answer: 'health',
    operationId: 'getHealth',
    summary: 'Service health',
    description: 'Always 200 while the service answers; `status` is "degraded" with a reason when a dependency is down. Never cached.',
    tag: 'v1',
    body: ({ answers }) => answers.Health,
    mediaType: JSON_TYPE,
    cacheControl: NO_STORE,
    counted: false,
  },
  {
    path: PRODUCT_PATH,
    methods: GET,
    answer: ({ facts }) => facts,
    operationId: 'getProduct',
    summary: 'Reviewed product facts',
    description:
      'The reviewed product facts with their review date, the canonical public resources and the safe start options. ' +
      'JSON unless the Accept header prefers Markdown (`text/markdown`), plain text (`text/plain`, the same Markdown) or ' +
      'JSON-LD (`application/ld+json`: a schema.org SoftwareApplication); JSON wins ties.',
    tag: 'v1',
    body: ({ facts }) => facts.Product,
    mediaType: JSON_TYPE,
    alternates: [
      { mediaType: 'text/markdown', body: ({ discovery }) => discovery.ProductMarkdown, build: productMarkdown },
      { mediaType: 'text/plain', body: ({ discovery }) => discovery.ProductMarkdown, build: productMarkdown },
      { mediaType: 'application/ld+json', body: ({ discovery }) => discovery.SoftwareApplicationLd, build: buildJsonLd },
    ],
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: OPENAPI_PATH,
    methods: GET,
    // Loaded when the document is first built: a start never evaluates what turns schemas into JSON Schema.
    answer: async (context) => (await import('./api/openapi.ts')).buildOpenApi(context, servedRoutes(context), ROUTES),
    operationId: 'getOpenApi',
    summary: 'OpenAPI document',
    description: 'This document: the authoritative contract. Sent gzip-coded when the client accepts it.',
    tag: 'service',
    body: ({ answers }) => answers.OpenApiDocument,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: problemPath('{code}'),
    methods: GET,
    answer: ({ base }, { code }) => problemType(base, code as ProblemCode),
    operationId: 'getProblemType',
    summary: 'Problem type description',
    description: `What a problem type means and how to resolve it; every problem \`type\` URI resolves here. Codes: ${PROBLEM_CODES.join(', ')}.`,
    tag: 'service',
    body: ({ answers }) => answers.ProblemType,
    mediaType: JSON_TYPE,
    cacheControl: 'public, max-age=86400',
    params: { code: PROBLEM_CODES },
  },
  {
    path: FACTS_SCHEMA_PATH,
    methods: GET,
    answer: async ({ base, facts }) => (await import('./api/facts-json-schema.ts')).factsJsonSchema(base, facts),
    operationId: 'getFactsSchema',
    summary: 'JSON Schema of the facts file',
    description:
      'The JSON Schema (draft 2020-12) of the reviewed facts file, generated from the schema that checks it at start-up. ' +
      'A facts file names it in `$schema` so that an editor validates the file as it is typed.',
    tag: 'service',
    body: ({ answers }) => answers.FactsJsonSchema,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: API_CATALOG_PATH,
    methods: GET,
    answer: buildApiCatalog,
    operationId: 'getApiCatalog',
    summary: 'API catalog',
    description:
      'RFC 9727 API catalog: a Linkset (RFC 9264) whose one context, the API, links to its OpenAPI document ' +
      '(service-desc), its documentation (service-doc), its health (status), llms.txt (service-meta) and the product as ' +
      'schema.org JSON-LD (describedby).',
    tag: 'discovery',
    body: ({ discovery }) => discovery.ApiCatalog,
    mediaType: 'application/linkset+json',
    contentType: API_CATALOG_TYPE,
    cacheControl: PUBLIC_CACHE,
    links: ['api-catalog', 'jsonLd'],
  },
  {
    path: LLMS_PATH,
    methods: GET,
    answer: buildLlmsText,
    operationId: 'getLlmsText',
    summary: 'llms.txt',
    description:
      'The reviewed facts as a short Markdown page for language models (llmstxt.org format), with links to the API, the resources and the start options.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.LlmsText,
    mediaType: 'text/markdown',
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: LLMS_FULL_PATH,
    methods: GET,
    answer: buildLlmsFullText,
    operationId: 'getLlmsFullText',
    summary: 'llms-full.txt',
    description: 'Every fact written out as one Markdown page: the overview, every resource, every start option with its approval rule.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.LlmsFullText,
    mediaType: 'text/markdown',
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: ROBOTS_PATH,
    methods: GET,
    answer: buildRobotsTxt,
    operationId: 'getRobotsText',
    summary: 'robots.txt',
    description:
      'Crawl rules (RFC 9309): everything may be fetched, by every crawler and by each known AI agent in a group of its own; ' +
      'comments name the discovery documents; `Content-Signal` (contentsignals.org) and `Content-Usage` (IETF AI preferences) ' +
      'lines; `Sitemap`.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.RobotsText,
    mediaType: 'text/plain',
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: SERVER_CARD_PATH,
    methods: GET,
    answer: buildServerCard,
    operationId: 'getMcpServerCard',
    summary: 'MCP server card',
    description: 'The MCP Server Card (experimental draft, SEP-2127) of the /mcp endpoint: identity, transport and protocol revisions.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.ServerCard,
    mediaType: SERVER_CARD_TYPE,
    contentType: SERVER_CARD_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: SERVER_CARD_WELL_KNOWN_PATH,
    methods: GET,
    answer: buildServerCard,
    operationId: 'getMcpServerCardWellKnown',
    summary: 'MCP server card (well-known path)',
    description: 'The same card, byte for byte and with the same ETag, at the well-known path scanners probe.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.ServerCard,
    mediaType: SERVER_CARD_TYPE,
    contentType: SERVER_CARD_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: DOCS_PATH,
    methods: GET,
    answer: ({ name, facts }) => buildDocsPage({ title: name, assets: pageAssets(), jsonLd: buildJsonLd({ facts }) }),
    operationId: 'getDocsPage',
    summary: 'API reference page',
    description:
      'This document rendered for people (Swagger UI, served from this origin), the MCP endpoint included; "Try it out" on GET operations. ' +
      'It embeds the product as schema.org JSON-LD.',
    tag: 'service',
    body: ({ discovery }) => discovery.DocsPage,
    mediaType: 'text/html',
    cacheControl: PUBLIC_CACHE,
    docsPage: true,
  },
  {
    path: `${DOCS_PATH}/{asset}`,
    methods: GET,
    answer: 'asset',
    operationId: 'getDocsAsset',
    summary: 'A file of the docs page',
    description: 'A script or stylesheet the docs page loads, named by a hash of its content: cached for a year, never changed at its URL.',
    tag: 'service',
    body: ({ discovery }) => discovery.DocsAsset,
    mediaType: 'text/javascript',
    otherMediaTypes: ['text/css'],
    contentType: assetType,
    cacheControl: DOCS_ASSET_CACHE,
    params: { asset: DOCS_ASSETS.map((asset) => asset.file) },
    docsPage: true,
  },
  {
    path: SITEMAP_PATH,
    methods: GET,
    answer: buildSitemap,
    operationId: 'getSitemap',
    summary: 'Sitemap',
    description:
      'Every document for people and crawlers (sitemaps.org 0.9): the root, the API index, the product, the OpenAPI document, ' +
      "the docs page while it is served, llms.txt, llms-full.txt, the MCP server card and the Agent Skill, each with the facts' review date as `lastmod`.",
    tag: 'discovery',
    body: ({ discovery }) => discovery.SitemapXml,
    mediaType: 'application/xml',
    contentType: 'application/xml',
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: SKILL_PATH,
    methods: GET,
    answer: skill,
    operationId: 'getSkill',
    summary: 'Agent Skill',
    description:
      'An Agent Skill (agentskills.io SKILL.md) made from the facts: when this service is the right source, its MCP tools and ' +
      "REST endpoints, which start options need a person's approval, the rate limits. The same bytes as the well-known SKILL.md and over MCP (skills/get).",
    tag: 'discovery',
    body: ({ discovery }) => discovery.SkillMarkdown,
    mediaType: 'text/markdown',
    contentType: MARKDOWN_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: SKILL_INDEX_PATH,
    methods: GET,
    answer: (context) => buildSkillIndex({ base: context.base, skill: context.skill() }),
    operationId: 'getSkillIndex',
    summary: 'Agent Skills index',
    description:
      "The agent-skills discovery index (v0.2.0): the skill's name, description, SKILL.md URL and the SHA-256 digest of its served bytes.",
    tag: 'discovery',
    body: ({ discovery }) => discovery.SkillIndex,
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: wellKnownSkillPath('{name}'),
    methods: GET,
    answer: skill,
    operationId: 'getWellKnownSkill',
    summary: 'Agent Skill (well-known path)',
    description: 'The same SKILL.md as /skill.md, byte for byte, where the agent-skills discovery index lists it.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.SkillMarkdown,
    mediaType: 'text/markdown',
    contentType: MARKDOWN_TYPE,
    cacheControl: PUBLIC_CACHE,
    params: { name: [SKILL_NAME] },
  },
  {
    path: AI_CATALOG_PATH,
    methods: GET,
    answer: (context) => buildAiCatalog({ ...context, skill: context.skill() }),
    operationId: 'getAiCatalog',
    summary: 'AI catalog',
    description:
      'The AI Catalog the MCP server-card draft names as its discovery path: the host, and one entry per artifact for agents, ' +
      'each with a `urn:air` identifier, its media type and its URL here: the MCP server card, the OpenAPI document, ' +
      'the Agent Skill and llms.txt.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.AiCatalog,
    // JSON, as the contract has every document but the ones its standards name otherwise.
    mediaType: JSON_TYPE,
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: SECURITY_TXT_PATH,
    methods: GET,
    answer: ({ base, securityContact, builtAt }) => buildSecurityTxt(base, securityContact!, builtAt),
    operationId: 'getSecurityText',
    summary: 'security.txt',
    description:
      'RFC 9116: whom to tell about a vulnerability (SECURITY_CONTACT), with Expires a year after start-up or the last reload. Served only while SECURITY_CONTACT is set.',
    tag: 'discovery',
    body: ({ discovery }) => discovery.SecurityText,
    mediaType: 'text/plain',
    cacheControl: PUBLIC_CACHE,
    securityContact: true,
  },
  {
    path: MCP_PATH,
    methods: ['POST'],
    answer: 'mcp',
    operationId: 'postMcp',
    summary: 'MCP Streamable HTTP endpoint',
    description:
      'Model Context Protocol over Streamable HTTP, stateless, JSON responses. `search` and `fetch` answer in the shapes ' +
      "ChatGPT's connectors call (one text item whose JSON equals `structuredContent`). Under 2026-07-28, cacheable results " +
      `carry \`cacheScope: "public"\` and \`ttlMs: ${PUBLIC_MAX_AGE_SECONDS * 1000}\`, the REST documents' policy.`,
    tag: 'mcp',
    body: ({ mcp }) => mcp.JsonRpcResponse,
    mediaType: JSON_TYPE,
    refusals: MCP_REFUSALS,
  },
];

/** The routes a service serves: all of them but the docs page's while it is off, and security.txt while no contact is set. */
export const servedRoutes = ({ docsPage, securityContact }: Pick<BuildContext, 'docsPage' | 'securityContact'>): Route[] =>
  ROUTES.filter((route) => (docsPage || !route.docsPage) && (securityContact || !route.securityContact));

const SERVED_PATHS = new Set(ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => path)));

/**
 * Whether the handler serves `pathname` (a URL's path, without its query): exactly the paths of the
 * route table and no others, so a host app hands these to the handler and keeps the rest for itself.
 * (With the docs page off, the handler answers /docs and its files with the 404 problem.)
 */
export const isServedPath = (pathname: string): boolean => SERVED_PATHS.has(pathname);

/** Every path the handler serves, in the route table's order: what a platform routes to it (deploy/vercel, deploy/netlify). */
export const servedPaths = (): string[] => [...SERVED_PATHS];
