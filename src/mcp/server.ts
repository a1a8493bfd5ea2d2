/**
 * @module The MCP endpoint: the read-only tools, resources and prompts served statelessly to both protocol eras with JSON
 * bodies. The protocol stays in the official SDK's hands: 2026-07-28 traffic goes to
 * `createMcpHandler`, 2025-era traffic (as its `isLegacyRequest` decides) to a fresh stateless
 * `WebStandardStreamableHTTPServerTransport` with JSON responses, one factory serving both.
 * The modern leg stays in its default `auto` mode: it answers JSON because no tool emits
 * anything before its result.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
  type CacheHint,
  type ServerOptions,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { memorySkillFiles, SkillsExtension, type SkillCatalog } from '@modelcontextprotocol/server/ext/skills';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { PUBLIC_MAX_AGE_SECONDS } from '../http/headers.ts';
import { needsApproval, rulesParagraph } from '../facts/product-rules.ts';
import { productMarkdown } from '../discovery/markdown.ts';
import { iconsMember } from '../discovery/server-card.ts';
import { SKILL_FACTS_FILE } from '../discovery/skill.ts';
import type { SkillFile } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { createLibrary, type Library } from './documents.ts';
import { PROMPTS } from './prompts.ts';
import type { McpResource } from './resources.ts';
import { TOOLS } from './tools.ts';
import * as factsSchemas from '../facts/schema.ts';
import * as mcpSchemas from './schemas.ts';
import type { ToolShapes } from './tools.ts';

const shapes: ToolShapes = { facts: factsSchemas, mcp: mcpSchemas };
import { MCP_PROTOCOL_VERSIONS } from './versions.ts';

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * SEP-2549 (revision 2026-07-28): every result that revision makes cacheable may be kept and shared
 * as long as the REST documents it mirrors (`Cache-Control: public, max-age=60`): nothing changes
 * but on a reload of the facts.
 */
const PUBLIC_HINT: CacheHint = { cacheScope: 'public', ttlMs: PUBLIC_MAX_AGE_SECONDS * 1000 };
const CACHEABLE = [
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'resources/read',
] as const;
const CACHE_HINTS: ServerOptions['cacheHints'] = Object.fromEntries(CACHEABLE.map((method) => [method, PUBLIC_HINT]));

/** Nothing is added, removed or changed while an endpoint serves: a reload builds a new one. */
const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } };
/**
 * `toStandardJsonSchema` converts to JSON Schema each time it is asked, and the SDK asks on every
 * request (a fresh server per request): convert once per target and hand out the same result.
 */
function convertedOnce(schema: v.GenericSchema): StandardSchemaWithJSON {
  const standard = toStandardJsonSchema(schema);
  const { input, output } = standard['~standard'].jsonSchema;
  const memo = (convert: typeof input): typeof input => {
    const byTarget = new Map<string, Record<string, unknown>>();
    return (options) => {
      if (options.libraryOptions) return convert(options);
      let converted = byTarget.get(options.target);
      if (!converted) byTarget.set(options.target, (converted = convert(options)));
      return converted;
    };
  };
  return { '~standard': { ...standard['~standard'], jsonSchema: { input: memo(input), output: memo(output) } } } as StandardSchemaWithJSON;
}

const CONVERTED = new Map(
  [...TOOLS.map((tool) => tool.input(shapes)), ...PROMPTS.flatMap((prompt) => (prompt.args ? [prompt.args] : []))].map((schema) => [
    schema,
    convertedOnce(schema),
  ]),
);

function result(structuredContent: Record<string, unknown>) {
  return { structuredContent, content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }] };
}

/** What the server says about itself (`serverInfo`), from the facts. */
function identity(facts: Product, { name, version }: ServerInfo) {
  const website = facts.resources.find((resource) => resource.kind === 'website');
  return {
    name,
    title: facts.product.name,
    version,
    description: facts.product.summary,
    ...(website ? { websiteUrl: website.url } : {}),
    ...iconsMember(facts),
  };
}

/** What the server tells its clients: what it offers, then the privacy and approval rules in the words every text shares. */
function instructions(facts: Product): string {
  return (
    `Read-only, reviewed public facts about ${facts.product.name}: the product overview, its public resources and the ways ` +
    'to start, also searchable as documents (search, then fetch). No tool creates or changes anything. ' +
    (needsApproval(facts) ? "A start option says whether it needs a person's approval in requiresHumanApproval. " : '') +
    rulesParagraph(facts)
  );
}

interface Served {
  facts: Product;
  /** Each tool's output schema for these facts, converted once per set of facts. */
  outputs: ReadonlyMap<string, StandardSchemaWithJSON>;
  info: ServerInfo;
  resources: readonly McpResource[];
  library: Library;
  skills?: SkillCatalog;
}

/**
 * The skill as the SDK's own Skills extension serves it (skills/list, skills/get, `skill://` resources):
 * the very bytes of /skill.md, and every fact in its references folder, with the documents' public
 * cache hint; strict, so a skill the extension would refuse fails the start instead of being left out.
 */
const loadSkills = (skill: SkillFile, facts: Product) =>
  SkillsExtension.load(
    memorySkillFiles({ [`${skill.name}/SKILL.md`]: skill.text, [`${skill.name}/${SKILL_FACTS_FILE}`]: productMarkdown({ facts }) }),
    {
      cacheHint: PUBLIC_HINT,
      strict: true,
    },
  );

function buildServer({ facts, outputs, info, resources, library, skills }: Served): McpServer {
  const server = new McpServer(identity(facts, info), {
    // Both legs list every revision /mcp serves, so a version error names them all.
    supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
    instructions: instructions(facts),
    capabilities: CAPABILITIES,
    cacheHints: CACHE_HINTS,
  });
  registerResources(server, resources);
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description(facts),
        inputSchema: CONVERTED.get(tool.input(shapes))!,
        outputSchema: outputs.get(tool.name)!,
        annotations: { title: tool.title, ...READ_ONLY },
      },
      (args) => result(tool.answer({ facts, library }, args as Record<string, unknown>)),
    );
  }
  for (const prompt of PROMPTS) {
    const config = { title: prompt.title, description: prompt.description };
    const messages = (args: Record<string, string | undefined>) => ({ messages: prompt.messages(facts, library, args) });
    if (prompt.args)
      server.registerPrompt(prompt.name, { ...config, argsSchema: CONVERTED.get(prompt.args)! }, (args) =>
        messages(args as Record<string, string>),
      );
    else server.registerPrompt(prompt.name, config, () => messages({}));
  }
  skills?.attach(server);
  return server;
}

/** What the server says it is (`serverInfo`): the API's name and the package version; and the Agent Skill it offers (SEP-2640). */
export interface ServerInfo {
  name: string;
  version: string;
  skill?: SkillFile;
}

/** Serves one already-vetted MCP POST whose body has been read and parsed. */
export type McpEndpoint = (request: Request, parsedBody: unknown) => Promise<Response>;

/** `base` is `{base}`: the documents of search and fetch link to it. */
export function createMcpEndpoint(facts: Product, info: ServerInfo, resources: readonly McpResource[], base: string): McpEndpoint {
  const outputs = new Map(TOOLS.map((tool) => [tool.name, convertedOnce(tool.output(shapes, facts))]));
  const served: Served = { facts, outputs, info, resources, library: createLibrary(base, facts) };
  // The catalog is built once (digests and checks); every request waits for it, the first one only in fact.
  const ready = info.skill ? loadSkills(info.skill, facts).then((skills) => void (served.skills = skills)) : Promise.resolve();
  const factory = () => buildServer(served);
  const modern = createMcpHandler(factory, { legacy: 'reject' });
  return async (request, parsedBody) => {
    await ready;
    if (!(await isLegacyRequest(request, parsedBody))) {
      return listingEveryRevision(await modern.fetch(request, { parsedBody }), (parsedBody as { method?: unknown } | undefined)?.method);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await factory().connect(transport);
    // No close(): once the JSON answer exists this per-request pair holds no timer, handler or
    // stream, and close() would only build a "Connection closed" error, a large part of the
    // exchange's cost (README, Performance). Both are garbage once the answer is sent.
    return transport.handleRequest(request, { parsedBody });
  };
}

/**
 * The modern leg names only the revisions of its own era, in `server/discover` and in the
 * unsupported-version error (-32022); /mcp serves the 2025 ones too, and the contract names one list
 * everywhere. A client picks its fallback from the error's list, which must be a subset of what
 * discover reports (SEP-2575). The SDK installs its discover handler after the server is built, so
 * its answer is rewritten here.
 */
async function listingEveryRevision(response: Response, method: unknown): Promise<Response> {
  const discover = method === 'server/discover' && response.status === 200;
  if (response.status !== 400 && !discover) return response;
  const body = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (discover && Array.isArray(body?.result?.supportedVersions)) body.result.supportedVersions = MCP_PROTOCOL_VERSIONS;
  else if (body?.error?.code === ProtocolErrorCode.UnsupportedProtocolVersion && Array.isArray(body.error.data?.supported))
    body.error.data.supported = MCP_PROTOCOL_VERSIONS;
  else return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

function registerResources(server: McpServer, resources: readonly McpResource[]): void {
  for (const { name, uri, text, ...metadata } of resources) {
    // The SDK lists a resource and looks a read up by the URI's normalised form (a {base} written
    // with capitals or a default port is normalised): the contents name the resource the same way.
    const listed = new URL(uri).href;
    server.registerResource(name, listed, metadata, () => ({ contents: [{ uri: listed, mimeType: metadata.mimeType, text }] }));
  }
}
