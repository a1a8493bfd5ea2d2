/**
 * @module The MCP Server Card (experimental draft, SEP-2127, served at `<streamable-http-url>/server-card`):
 * identity, transport and protocol revisions of the /mcp endpoint.
 */
import { parseAddress } from '../util/ipaddr.ts';
import { MCP_PATH } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { SERVER_CARD_SCHEMA, SERVER_CARD_TEXT_MAX } from './identifiers.ts';
import type { ServerCard } from './schemas.ts';

/**
 * Reverse-DNS of the base URL's host (`api.example.com` -> `com.example.api`), as the draft's `name`
 * pattern admits; an IP address (reversed octets would read as a domain) or `localhost` gives `localhost`.
 */
export function serverCardName(base: string): string {
  const { hostname } = new URL(base);
  const local = hostname === 'localhost' || parseAddress(hostname) !== undefined;
  const host = local ? 'localhost' : hostname.split('.').reverse().join('.');
  return `${host.replace(/[^a-zA-Z0-9.-]/g, '-')}/product-discovery`;
}

/**
 * The draft caps `description` and `title` at 100 characters: a longer text is cut at its first
 * sentence or clause when that fits, else at a word, marked with an ellipsis.
 */
export function fitText(text: string, max = SERVER_CARD_TEXT_MAX): string {
  if (text.length <= max) return text;
  const clause = /^(.+?)[.:;](?:\s|$)/.exec(text)?.[1];
  if (clause && clause.length < max) return `${clause}.`;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length).replace(/[\s,;:]+$/, '')}…`;
}

/** An MCP icon (`Implementation.icons`, the server card's and the registry's `Icon`). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

/** The facts' `product.logo` as MCP icons: one icon, or none when the facts have no logo. */
function logoIcons({ product: { logo } }: Pick<Product, 'product'>): Icon[] {
  if (!logo) return [];
  return [{ src: logo.url, ...(logo.mediaType ? { mimeType: logo.mediaType } : {}), ...(logo.sizes ? { sizes: [...logo.sizes] } : {}) }];
}

/** `{ icons }` for an object that carries the facts' logo, `{}` when they have none. */
export const iconsMember = (facts: Pick<Product, 'product'>): { icons?: Icon[] } => {
  const icons = logoIcons(facts);
  return icons.length > 0 ? { icons } : {};
};

export function buildServerCard({
  base,
  facts,
  version,
  mcp: { protocolVersions },
}: {
  base: string;
  facts: Product;
  version: string;
  mcp: { protocolVersions: readonly string[] };
}): ServerCard {
  const website = facts.resources.find((resource) => resource.kind === 'website');
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverCardName(base),
    title: fitText(facts.product.name),
    version,
    description: fitText(facts.product.summary),
    ...(website ? { websiteUrl: website.url } : {}),
    ...iconsMember(facts),
    remotes: [{ type: 'streamable-http', url: `${base}${MCP_PATH}`, supportedProtocolVersions: [...protocolVersions] }],
  };
}
