/**
 * @module The valibot schemas of the discovery documents: the API catalog, llms.txt and llms-full.txt,
 * the MCP server card, the host's root, robots.txt, the product as Markdown and as JSON-LD, the docs
 * page, the sitemap, the Agent Skill and its index, and security.txt. They import nothing of ours but the
 * identifiers beside them (identifiers.ts).
 */
import * as v from 'valibot';
import { SERVER_CARD_SCHEMA, SERVER_CARD_TEXT_MAX } from './identifiers.ts';

const url = v.pipe(v.string(), v.url('must be an absolute URL'));

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
        describedby: v.optional(Targets),
      }),
    ),
  }),
  v.title('ApiCatalog'),
  v.description(
    'RFC 9727 API catalog: a Linkset (RFC 9264) with one context, the API, and its description, documentation, status, ' +
      'llms.txt and the product as schema.org JSON-LD (describedby).',
  ),
);

export const LlmsText = v.pipe(
  v.string(),
  v.title('LlmsText'),
  v.description(
    'llms.txt (llmstxt.org): the product name, a summary, then Markdown lists of links to the API, the resources, the start options and the problem types.',
  ),
);

export const RootDocument = v.pipe(
  v.object({
    name: v.pipe(v.string(), v.minLength(1)),
    description: v.pipe(v.string(), v.minLength(1)),
    links: v.object({
      api: url,
      product: v.optional(url),
      docs: v.optional(v.pipe(url, v.description('The API reference page; absent when the service runs without it.'))),
      openapi: url,
      mcp: url,
      apiCatalog: url,
      llmsTxt: url,
      llmsFullTxt: url,
      mcpServerCard: url,
      sitemap: v.optional(url),
      skill: v.optional(url),
      aiCatalog: v.optional(url),
    }),
  }),
  v.title('RootDocument'),
  v.description("The host's root: the product's name, what the service is, and a link to every entry point."),
);

export const RobotsText = v.pipe(
  v.string(),
  v.title('RobotsText'),
  v.description(
    'robots.txt (RFC 9309): every path may be fetched; comments name the discovery documents; a Content-Signal line (contentsignals.org).',
  ),
);

export const LlmsFullText = v.pipe(
  v.string(),
  v.title('LlmsFullText'),
  v.description(
    'llms-full.txt: every fact written out as Markdown: the overview, every resource, every start option with its approval rule.',
  ),
);

export const ProductMarkdown = v.pipe(
  v.string(),
  v.title('ProductMarkdown'),
  v.description('The product facts as Markdown (sent as text/markdown, or as text/plain to a client that prefers it).'),
);

export const DocsPage = v.pipe(
  v.string(),
  v.title('DocsPage'),
  v.description('The API reference page (HTML): Swagger UI rendering /openapi.json, MCP included. Its assets are under /docs/.'),
);

export const DocsAsset = v.pipe(
  v.string(),
  v.title('DocsAsset'),
  v.description("One of the docs page's files (JavaScript or CSS), named by a hash of its content, so it never changes at its URL."),
);

export const RootMarkdown = v.pipe(
  v.string(),
  v.title('RootMarkdown'),
  v.description(
    "The host's root as Markdown (sent as text/markdown, or as text/plain to a client that prefers it): the product, and every entry point as a link.",
  ),
);

export const SoftwareApplicationLd = v.pipe(
  v.object({
    '@context': v.literal('https://schema.org'),
    '@type': v.literal('SoftwareApplication'),
    name: v.string(),
    description: v.string(),
    url: v.optional(url),
    logo: v.optional(v.pipe(url, v.description("The product's logo, when its facts give one."))),
    applicationCategory: v.string(),
    operatingSystem: v.string(),
    dateModified: v.pipe(v.string(), v.isoDate()),
    sameAs: v.optional(v.array(url)),
    potentialAction: v.array(v.object({ '@type': v.literal('Action'), name: v.string(), description: v.string(), target: url })),
  }),
  v.title('SoftwareApplicationLd'),
  v.description(
    'The product as schema.org JSON-LD: a SoftwareApplication whose url is the website, sameAs the other public resources, ' +
      'dateModified the review date and potentialAction the start options.',
  ),
);

export const SitemapXml = v.pipe(
  v.string(),
  v.title('SitemapXml'),
  v.description("A sitemaps.org 0.9 urlset: every document for people and crawlers, each with the facts' review date as lastmod."),
);

export const SkillMarkdown = v.pipe(
  v.string(),
  v.title('SkillMarkdown'),
  v.description(
    'An Agent Skill (agentskills.io SKILL.md): YAML front matter with name and description, then Markdown on when and how to use ' +
      'this service. Made from the facts; the same bytes at every place it is served.',
  ),
);

export const SkillIndex = v.pipe(
  v.object({
    $schema: v.string(),
    skills: v.array(
      v.object({
        name: v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), v.maxLength(64)),
        type: v.literal('skill-md'),
        description: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
        url,
        digest: v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/)),
      }),
    ),
  }),
  v.title('SkillIndex'),
  v.description(
    "The agent-skills discovery index (v0.2.0): each skill's name, description, SKILL.md URL and the SHA-256 digest of its bytes.",
  ),
);

export const AiCatalog = v.pipe(
  v.object({
    specVersion: v.literal('1.0'),
    host: v.object({ displayName: v.pipe(v.string(), v.minLength(1)), documentationUrl: v.optional(url) }),
    entries: v.array(
      v.object({
        identifier: v.pipe(v.string(), v.regex(/^urn:air:[^:\s]+:[^\s]+:[^:\s]+$/)),
        type: v.string(),
        url,
        displayName: v.optional(v.string()),
        description: v.optional(v.string()),
        updatedAt: v.pipe(v.string(), v.isoTimestamp()),
      }),
    ),
  }),
  v.title('AiCatalog'),
  v.description(
    'An AI Catalog (the discovery document the MCP server-card draft names): the host, and one entry per artifact, each with its ' +
      'urn:air identifier, media type and URL: the MCP server card, the OpenAPI document, the Agent Skill and llms.txt.',
  ),
);

export const SecurityText = v.pipe(
  v.string(),
  v.title('SecurityText'),
  v.description('RFC 9116 security.txt: Contact, Expires, Canonical and Preferred-Languages.'),
);

export const ServerCard = v.pipe(
  v.object({
    $schema: v.literal(SERVER_CARD_SCHEMA),
    name: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/), v.maxLength(200)),
    title: v.pipe(v.string(), v.minLength(1), v.maxLength(SERVER_CARD_TEXT_MAX)),
    version: v.string(),
    description: v.pipe(v.string(), v.minLength(1), v.maxLength(SERVER_CARD_TEXT_MAX)),
    websiteUrl: v.optional(url),
    icons: v.optional(
      v.pipe(
        v.array(v.object({ src: url, mimeType: v.optional(v.string()), sizes: v.optional(v.array(v.string())) })),
        v.description("The product's logo, when its facts give one."),
      ),
    ),
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
export type RootDocument = v.InferOutput<typeof RootDocument>;
export type SoftwareApplicationLd = v.InferOutput<typeof SoftwareApplicationLd>;
export type SkillIndex = v.InferOutput<typeof SkillIndex>;
export type AiCatalog = v.InferOutput<typeof AiCatalog>;
