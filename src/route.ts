/**
 * @module What one route declares, and the service's paths. The route table (routes.ts) is a list
 * of these; dispatch, `Allow`, the response headers and the OpenAPI document all read it.
 */
import type * as v from 'valibot';
import type { DeprecationNotice } from './contract/deprecation.ts';
import type { ProblemCode } from './contract/schemas.ts';
import type { Product } from './facts/schema.ts';

export const API_PATH = '/api/v1';
export const HEALTH_PATH = `${API_PATH}/health`;
export const PRODUCT_PATH = `${API_PATH}/product`;
export const OPENAPI_PATH = '/openapi.json';
export const MCP_PATH = '/mcp';
export const API_CATALOG_PATH = '/.well-known/api-catalog';
export const LLMS_PATH = '/llms.txt';
export const SERVER_CARD_PATH = `${MCP_PATH}/server-card`;
export { problemPath } from './contract/problems.ts';
export const ROOT_PATH = '/';
export const ROBOTS_PATH = '/robots.txt';
export const LLMS_FULL_PATH = '/llms-full.txt';
/** The server card at the well-known path scanners probe: the same bytes as /mcp/server-card. */
export const SERVER_CARD_WELL_KNOWN_PATH = '/.well-known/mcp/server-card.json';
export const DOCS_PATH = '/docs';
/** The facts file's JSON Schema, for editors and CI. */
export const FACTS_SCHEMA_PATH = '/schemas/facts.json';
export const SITEMAP_PATH = '/sitemap.xml';
export const SKILL_PATH = '/skill.md';
/** The agentskills.io discovery RFC's well-known place: its index and each skill's SKILL.md. */
export const AGENT_SKILLS_PATH = '/.well-known/agent-skills';
export const SKILL_INDEX_PATH = `${AGENT_SKILLS_PATH}/index.json`;
export const wellKnownSkillPath = (name: string) => `${AGENT_SKILLS_PATH}/${name}/SKILL.md`;
export const SECURITY_TXT_PATH = '/.well-known/security.txt';
/** The AI Catalog the MCP server-card draft names: the server card, the OpenAPI document, the skill and llms.txt. */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';

/** Whether a path is under the versioned API (and so carries its deprecation notice). */
export const isV1Path = (path: string) => path === API_PATH || path.startsWith(`${API_PATH}/`);

export type Method = 'GET' | 'HEAD' | 'POST';

/** What a document's body is built from: fixed for the life of one set of facts. */
export interface BuildContext {
  /** `{base}`, without a trailing slash. */
  base: string;
  facts: Product;
  /** The API's name: `<product> public API`. */
  name: string;
  /** The package version. */
  version: string;
  deprecation?: DeprecationNotice;
  /** The MCP endpoint as the documents describe it: its body limit, tool names and protocol revisions. */
  mcp: { maxBodyBytes: number; toolNames: readonly string[]; protocolVersions: readonly string[] };
  /** Whether the docs page is served (DOCS_PAGE): every link to it depends on it. */
  docsPage: boolean;
  /** robots.txt's `Content-Signal` (contentsignals.org). */
  contentSignal: string;
  /** The Agent Skill made from these facts (skill.ts), made on its first use: served as is at every place it is offered. */
  skill: () => SkillFile;
  /** SECURITY_CONTACT: a `mailto:` or `https:` URI; security.txt is served only while it is set. */
  securityContact?: string;
  /** When these documents were built (start-up or the last reload): security.txt's Expires counts from it. */
  builtAt: Date;
}

/** One SKILL.md: its name, the description of its front matter and its text. */
export interface SkillFile {
  name: string;
  description: string;
  text: string;
}

/**
 * The valibot schemas a body's schema is picked from, one namespace per group: declared empty here and
 * filled in by api/shapes.ts, which holds them, so that what a route declares imports no schema.
 */
// biome-ignore lint/suspicious/noEmptyInterface: an interface, so that api/shapes.ts can fill it in (module augmentation).
export interface Shapes {}

/** A body's schema, picked from the shapes when a document describes it: a start builds none. */
export type BodyOf = (shapes: Shapes) => v.GenericSchema;

/** Builds a document's body (a JSON value, or text served as is) once per set of facts; a promise of it where the builder loads what only that document needs. */
export type Builder = (context: BuildContext, params: Record<string, string>) => unknown;

export interface LinkTarget {
  /** The relation type, when it is not the target's key. */
  rel?: string;
  path: string;
  /** The media type found there (the link's `type`). */
  type: string;
  docsPage?: true;
}

/**
 * RFC 8288 relations a route's answers link to besides `service-desc`, each with the path it points
 * at and the media type found there: the API catalog (RFC 9727 section 3), the docs page (RFC 8631)
 * and the MCP server card.
 */
export const LINK_TARGETS = {
  'api-catalog': { path: API_CATALOG_PATH, type: 'application/linkset+json' },
  // Like the docs page's routes, linked only while the page is served.
  'service-doc': { path: DOCS_PATH, type: 'text/html', docsPage: true },
  describedby: { path: SERVER_CARD_PATH, type: 'application/mcp-server-card+json' },
  // The product as schema.org JSON-LD (RFC 8288 describedby), chosen by Accept at the product's path.
  jsonLd: { rel: 'describedby', path: PRODUCT_PATH, type: 'application/ld+json' },
  // RFC 8288 section 3.3 (alternate, from HTML 4): the root's own Markdown representation.
  markdown: { rel: 'alternate', path: ROOT_PATH, type: 'text/markdown' },
} satisfies Record<string, LinkTarget>;
export type LinkRelation = keyof typeof LINK_TARGETS;

/**
 * A media type the route answers with `302 Found` to another of the service's paths (RFC 9110 section
 * 15.4.3) when the request's Accept prefers it: a browser opening the root is sent to the docs page.
 */
export interface Redirect {
  mediaType: string;
  path: string;
  /** Only while the docs page is served. */
  docsPage?: true;
}

/** Another representation of a document, chosen by the request's Accept (RFC 9110 section 12.5.1). */
export interface Alternate {
  mediaType: string;
  /** Its body's schema (the OpenAPI document's), picked from the shapes when a document describes it. */
  body: BodyOf;
  build: Builder;
}

export interface Route {
  /** OpenAPI path template. */
  path: string;
  methods: readonly Method[];
  /**
   * How it is answered: the builder of a document (built once per set of facts), health or the MCP
   * endpoint (per request), or a file of the docs page (loaded with the first request for one).
   */
  answer: Builder | 'health' | 'mcp' | 'asset';
  operationId: string;
  summary: string;
  description: string;
  tag: 'v1' | 'service' | 'mcp' | 'discovery';
  /** The success body's schema, picked from the shapes when a document describes it; its `v.title` names the OpenAPI component. */
  body: BodyOf;
  /** The media type, without parameters (the OpenAPI content key). */
  mediaType: string;
  /** The exact Content-Type of a success answer, when it is not `{mediaType}; charset=utf-8` (per path when the path decides). */
  contentType?: string | ((params: Record<string, string>) => string);
  /** The document's other representations; the default one is `mediaType`'s. */
  alternates?: readonly Alternate[];
  /** Media types answered with a redirect instead, when the Accept header prefers them. */
  redirects?: readonly Redirect[];
  /** Other media types a path of the route answers with (files of several types under one template). */
  otherMediaTypes?: readonly string[];
  /** Cache-Control of a success answer (a document's; MCP answers carry the SDK's). */
  cacheControl?: string;
  /** Path parameters and the values each takes; every combination is an exact path. */
  params?: Record<string, readonly string[]>;
  /**
   * `false`: GET and HEAD are not counted against the rate limit (they still carry its headers), so
   * a load balancer probing from one address never sees a 429 or a fail-closed 503.
   */
  counted?: false;
  /** Relations every answer on the path links to, besides `service-desc`. */
  links?: readonly LinkRelation[];
  /** The HTTP-level refusals of the route besides the rate limit's, answered as problems. */
  refusals?: readonly ProblemCode[];
  /** Served only while the docs page is on (DOCS_PAGE). */
  docsPage?: true;
  /** Served only while SECURITY_CONTACT is set. */
  securityContact?: true;
}

/** The exact paths a route serves: its template filled with every combination of parameter values. */
export function pathsOf(route: Route): { path: string; params: Record<string, string> }[] {
  let paths = [{ path: route.path, params: {} as Record<string, string> }];
  for (const [name, values] of Object.entries(route.params ?? {})) {
    paths = paths.flatMap(({ path, params }) =>
      values.map((value) => ({ path: path.replace(`{${name}}`, value), params: { ...params, [name]: value } })),
    );
  }
  return paths;
}

/** The Content-Type of a route's success answers on the path its `params` fill. */
export function contentTypeOf(route: Route, params: Record<string, string> = {}): string {
  const { contentType } = route;
  return typeof contentType === 'function' ? contentType(params) : (contentType ?? `${route.mediaType}; charset=utf-8`);
}

/** RFC 9110 section 10.2.1: the methods a route's paths accept. */
export const allowOf = (route: Route) => [...route.methods, 'OPTIONS'].join(', ');

/** Whether a method is one the route takes (OPTIONS, the preflight, is answered apart). */
export const takes = (route: Route, method: string) => (route.methods as readonly string[]).includes(method);
