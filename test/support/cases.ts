/**
 * The request cases the in-process and end-to-end tests share, written out by hand (not derived
 * from the route table) so that a change to the table shows up here.
 */

const GET = 'GET, HEAD, OPTIONS';
const POST = 'POST, OPTIONS';

/** A known path with a method it does not take, and the Allow its 405 names. */
export const WRONG_METHODS: [method: string, path: string, allow: string][] = [
  ['DELETE', '/api/v1/product', GET],
  ['POST', '/api/v1', GET],
  ['PUT', '/openapi.json', GET],
  ['PATCH', '/api/v1/health', GET],
  ['PATCH', '/problems/internal_error', GET],
  ['POST', '/problems/rate_limited', GET],
  ['POST', '/.well-known/api-catalog', GET],
  ['PUT', '/llms.txt', GET],
  ['DELETE', '/mcp/server-card', GET],
  ['GET', '/mcp', POST],
  ['DELETE', '/mcp', POST],
];

/** Every kind of known path a browser may preflight, and the methods its answer allows. */
export const PREFLIGHTS: [path: string, allow: string][] = [
  ['/api/v1', GET],
  ['/api/v1/health', GET],
  ['/api/v1/product', GET],
  ['/openapi.json', GET],
  ['/problems/rate_limited', GET],
  ['/.well-known/api-catalog', GET],
  ['/llms.txt', GET],
  ['/mcp/server-card', GET],
];
