/**
 * @module The REST route table: one entry per GET/HEAD path, the single source for routing and for
 * the OpenAPI document.
 */
import type * as v from 'valibot';
import { ApiIndex, Health, Product, PROBLEM_CODES, ProblemType } from './schemas.ts';

export const API_PATH = '/api/v1';
export const HEALTH_PATH = `${API_PATH}/health`;
export const PRODUCT_PATH = `${API_PATH}/product`;
export const OPENAPI_PATH = '/openapi.json';

/** Whether a path is under the versioned API (and so carries its deprecation notice). */
export const isV1Path = (path: string) => path === API_PATH || path.startsWith(`${API_PATH}/`);

export const PUBLIC_CACHE = 'public, max-age=60';

export interface RestRoute {
  /** OpenAPI path template. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  schema: v.GenericSchema;
  schemaName: string;
  cacheControl: string;
}

export const REST_ROUTES: RestRoute[] = [
  {
    path: API_PATH,
    operationId: 'getApiIndex',
    summary: 'API index',
    description: 'Name, version and links to every endpoint, the OpenAPI document and the MCP endpoint with its tool names.',
    schema: ApiIndex,
    schemaName: 'ApiIndex',
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: HEALTH_PATH,
    operationId: 'getHealth',
    summary: 'Service health',
    description: 'Always 200 while the service answers; `status` is "degraded" with a reason when a dependency is down. Never cached.',
    schema: Health,
    schemaName: 'Health',
    cacheControl: 'no-store',
  },
  {
    path: PRODUCT_PATH,
    operationId: 'getProduct',
    summary: 'Reviewed product facts',
    description: 'The reviewed product facts with their review date, the canonical public resources and the safe start options.',
    schema: Product,
    schemaName: 'Product',
    cacheControl: PUBLIC_CACHE,
  },
  {
    path: '/problems/{code}',
    operationId: 'getProblemType',
    summary: 'Problem type description',
    description: `What a problem type means and how to resolve it; every problem \`type\` URI resolves here. Codes: ${PROBLEM_CODES.join(', ')}.`,
    schema: ProblemType,
    schemaName: 'ProblemType',
    cacheControl: 'public, max-age=86400',
  },
];

export const MCP_PATH = '/mcp';
