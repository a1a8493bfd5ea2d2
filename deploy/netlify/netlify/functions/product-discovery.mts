// The service as a Netlify Function on exactly the paths it serves; every other path stays the site's own.
// `config.path` is generated from the route table: `npm run deploy:routes` in product-discovery-api.
export { default } from 'product-discovery-api/netlify';

export const config = {
  path: [
    '/',
    '/api/v1',
    '/api/v1/health',
    '/api/v1/product',
    '/openapi.json',
    '/problems/api_route_not_found',
    '/problems/method_not_allowed',
    '/problems/not_acceptable',
    '/problems/payload_too_large',
    '/problems/unsupported_media_type',
    '/problems/origin_not_allowed',
    '/problems/rate_limited',
    '/problems/internal_error',
    '/problems/service_unavailable',
    '/schemas/facts.json',
    '/.well-known/api-catalog',
    '/llms.txt',
    '/llms-full.txt',
    '/robots.txt',
    '/mcp/server-card',
    '/.well-known/mcp/server-card.json',
    '/docs',
    '/docs/swagger-ui.a6a4cf68f069.css',
    '/docs/docs.f53ca7e9eca8.css',
    '/docs/swagger-ui-bundle.e6a898692f2d.js',
    '/docs/docs.8ec3c65e05fe.js',
    '/mcp',
  ],
};
