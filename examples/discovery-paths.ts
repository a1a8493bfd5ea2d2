/**
 * The paths the discovery API serves, and no others: a host app hands exactly these to the
 * handler and keeps everything else (its own pages, a future /api/v2) for itself.
 */
const DISCOVERY_PATH =
  /^\/(?:api\/v1(?:\/health|\/product)?|openapi\.json|mcp(?:\/server-card)?|llms\.txt|\.well-known\/api-catalog|problems\/[a-z_]+)$/;

/** `pathname` without the query string, e.g. `new URL(request.url).pathname`. */
export const isDiscoveryPath = (pathname: string): boolean => DISCOVERY_PATH.test(pathname);
