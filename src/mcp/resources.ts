/**
 * @module The facts as MCP resources: the product body, the OpenAPI document and llms.txt, each
 * read as exactly the bytes REST serves at the same URL (the surface's prepared bodies, decoded,
 * not serialised a second time). server.ts registers them through the SDK's own `registerResource`,
 * so `resources/list`, `resources/read`, `resources/templates/list` and the not-found error are its.
 */
import { LLMS_PATH, OPENAPI_PATH, PRODUCT_PATH } from '../route.ts';
import type { Product } from '../facts/schema.ts';

/** A resource as `resources/list` shows it. */
export interface McpResourceInfo {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  annotations: { audience: ('user' | 'assistant')[]; lastModified?: string };
}

export interface McpResource extends McpResourceInfo {
  /** The body REST serves at `uri`. */
  text: string;
}

const AUDIENCE: McpResource['annotations']['audience'] = ['user', 'assistant'];
const decoder = new TextDecoder();

/** The resources over `facts`, each with the path REST serves it at. */
export function resourceInfos(base: string, facts: Product): (McpResourceInfo & { path: string })[] {
  return [
    {
      path: PRODUCT_PATH,
      uri: `${base}${PRODUCT_PATH}`,
      name: 'product',
      title: `${facts.product.name}: reviewed product facts`,
      description: 'The reviewed product facts, canonical public resources and safe start options (the GET /api/v1/product body).',
      mimeType: 'application/json',
      // The review date, as the ISO 8601 date-time the annotation takes (a date alone means 00:00 UTC).
      annotations: { audience: AUDIENCE, lastModified: `${facts.product.reviewedOn}T00:00:00Z` },
    },
    {
      path: OPENAPI_PATH,
      uri: `${base}${OPENAPI_PATH}`,
      name: 'openapi',
      title: 'OpenAPI document',
      description: 'The OpenAPI 3.1 document of this API: the authoritative contract.',
      mimeType: 'application/json',
      annotations: { audience: AUDIENCE },
    },
    {
      path: LLMS_PATH,
      uri: `${base}${LLMS_PATH}`,
      name: 'llms-txt',
      title: `${facts.product.name} llms.txt`,
      description: 'The facts as a short Markdown page for language models (llmstxt.org format).',
      mimeType: 'text/markdown',
      annotations: { audience: AUDIENCE },
    },
  ];
}

/** The resources with their bodies: `bodyOf(path)` is the body served at that path. */
export function describeResources(base: string, facts: Product, bodyOf: (path: string) => Uint8Array): McpResource[] {
  return resourceInfos(base, facts).map(({ path, ...info }) => ({ ...info, text: decoder.decode(bodyOf(path)) }));
}
