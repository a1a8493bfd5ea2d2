/**
 * @module The MCP Registry's `server.json` for this deployment: what `mcp-publisher publish` sends to
 * registry.modelcontextprotocol.io. One remote, streamable-http at {base}/mcp; the name, title and
 * description of the server card, whose limits are the registry's too.
 */
import { MCP_PATH } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { fitText, iconsMember, serverCardName, type Icon } from './server-card.ts';

/** The registry's current server.json schema (vendored in test/fixtures/mcp-registry-server.schema.json). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

export interface ServerJson {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  websiteUrl?: string;
  icons?: Icon[];
  remotes: { type: 'streamable-http'; url: string }[];
}

export function buildServerJson(base: string, facts: Product, version: string): ServerJson {
  const website = facts.resources.find((resource) => resource.kind === 'website');
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: serverCardName(base),
    title: fitText(facts.product.name),
    description: fitText(facts.product.summary),
    version,
    ...(website ? { websiteUrl: website.url } : {}),
    ...iconsMember(facts),
    remotes: [{ type: 'streamable-http', url: `${base}${MCP_PATH}` }],
  };
}

/**
 * A warning when `base` names this machine (localhost, 127.0.0.0/8, ::1, or the unspecified address),
 * which no registry client can reach: the server would be listed under a `localhost/...` name.
 */
export function loopbackWarning(base: string): string | undefined {
  const host = new URL(base).hostname.toLowerCase();
  const loopback =
    host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || ['[::1]', '0.0.0.0', '[::]'].includes(host);
  if (!loopback) return undefined;
  return (
    `product-discovery registry: warning: ${base} names this machine, which registry clients cannot reach; ` +
    'give the public URL clients use, e.g. --base https://api.example.com'
  );
}
