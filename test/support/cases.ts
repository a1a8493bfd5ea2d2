/**
 * The request cases the in-process and end-to-end tests share, written out by hand (not derived
 * from the route table) so that a change to the table shows up here. The one exception is a docs
 * page file, whose name carries a hash of its content: it is taken from the asset list.
 */
import { DOCS_ASSETS } from '../../src/docs/assets.ts';

/** A file of the docs page (its fingerprinted path). */
const DOCS_ASSET = DOCS_ASSETS[0]!.path;

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
  ['POST', '/', GET],
  ['PUT', '/robots.txt', GET],
  ['DELETE', '/llms-full.txt', GET],
  ['POST', '/.well-known/mcp/server-card.json', GET],
  ['POST', '/docs', GET],
  ['PUT', DOCS_ASSET, GET],
  ['POST', '/sitemap.xml', GET],
  ['PUT', '/skill.md', GET],
  ['DELETE', '/.well-known/agent-skills/index.json', GET],
  ['POST', '/.well-known/agent-skills/product-discovery/SKILL.md', GET],
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
  ['/', GET],
  ['/robots.txt', GET],
  ['/llms-full.txt', GET],
  ['/.well-known/mcp/server-card.json', GET],
  ['/docs', GET],
  [DOCS_ASSET, GET],
  ['/sitemap.xml', GET],
  ['/skill.md', GET],
  ['/.well-known/agent-skills/index.json', GET],
  ['/.well-known/agent-skills/product-discovery/SKILL.md', GET],
];

/** The docs page's Content-Security-Policy the contract names, directive by directive ("Documentation page"). */
export const CONTRACT_DOCS_CSP: Record<string, string[]> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'connect-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'style-src': ["'self'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/** The AI agents the contract names, each owed a robots.txt group of its own ("Discovery documents"). */
export const CONTRACT_AI_AGENTS = [
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'PerplexityBot',
  'Perplexity-User',
  'Google-Extended',
  'CCBot',
  'Applebot-Extended',
  'meta-externalagent',
];

/** The headers the contract lets cross-origin scripts read (Access-Control-Expose-Headers). */
export const EXPOSED = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
  'Link',
  'Deprecation',
  'Sunset',
];
