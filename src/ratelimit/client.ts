/**
 * @module Client identity: the key a request counts against. IPv4 addresses (IPv4-mapped and NAT64
 * IPv6 ones included) count per address; other IPv6 addresses per network prefix, since one subscriber
 * usually holds a whole /56 and could otherwise rotate addresses to multiply the quota.
 */
import { formatAddress, masked, parseAddress } from '../util/ipaddr.ts';
import { invalidConfiguration, settingLine } from '../util/startup-error.ts';

/**
 * What the way in knows of the connection: its address, read only when no header names the client.
 * An entry may make it a getter (Bun asks the kernel for it on every call).
 */
export interface Connection {
  clientAddress?: string;
}

/** At 0 X-Forwarded-For is ignored: the connection's address is the client. */
export const TRUST_PROXY_HOPS_DEFAULT = 0;

/**
 * Where the client's address is read: a number of trusted proxies appending to X-Forwarded-For (0:
 * the connection's address), or the one header a platform in front sets to the client's address
 * alone (CLIENT_IP_HEADER: Fly-Client-IP, CF-Connecting-IP, X-Real-IP).
 */
export type ClientTrust = number | { header: string };

/** What a way in calls the two settings, so a refusal names the ones its user wrote. */
export interface ClientSourceNames {
  trustProxyHops: string;
  clientIpHeader: string;
}

const OPTION_NAMES: ClientSourceNames = { trustProxyHops: 'trustProxyHops', clientIpHeader: 'clientIpHeader' };

/**
 * What is wrong with `name` as the header a platform sets to the client's address (`hops`: what the way
 * in calls the trusted proxies' setting); undefined when nothing is.
 */
export function clientIpHeaderProblem(name: string, hops = OPTION_NAMES.trustProxyHops): string | undefined {
  // RFC 9110 section 5.1: a field name is a token.
  if (typeof name !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    return 'must be one header name, such as Fly-Client-IP, CF-Connecting-IP or X-Real-IP';
  }
  if (['x-forwarded-for', 'forwarded'].includes(name.toLowerCase())) {
    return `is a list a client can start with forged entries: set ${hops} to the number of proxies in front instead`;
  }
  return undefined;
}

/**
 * The one source of the client address, checked: the header, or the trusted hops (range checked by the
 * caller). Both set is refused, as one of them would be ignored; a StartupError names them as `names` call them.
 */
export function clientTrust(
  { trustProxyHops, clientIpHeader }: { trustProxyHops?: number; clientIpHeader?: string },
  names: ClientSourceNames = OPTION_NAMES,
): ClientTrust {
  if (clientIpHeader !== undefined) {
    const problem = clientIpHeaderProblem(clientIpHeader, names.trustProxyHops);
    if (problem) throw invalidConfiguration(settingLine(names.clientIpHeader, clientIpHeader, problem));
  }
  if (clientIpHeader && trustProxyHops) {
    throw invalidConfiguration(
      `${names.clientIpHeader} and ${names.trustProxyHops} are both set: the client address comes from one header the ` +
        `platform sets (${names.clientIpHeader}) or from X-Forwarded-For behind trusted proxies (${names.trustProxyHops}), not both; unset one.`,
    );
  }
  return clientIpHeader ? { header: clientIpHeader } : (trustProxyHops ?? TRUST_PROXY_HOPS_DEFAULT);
}

/**
 * The client's address: the connection's, the platform's header, or behind `trust` proxies the
 * X-Forwarded-For entry the nearest trusted proxy vouches for. Undefined without either (embedded use).
 */
export function clientAddress(request: Request, connection: Connection, trust: ClientTrust): string | undefined {
  if (typeof trust === 'object') {
    // The platform replaces what a client sent; a value that is not one address did not come from it.
    const given = request.headers.get(trust.header)?.trim();
    return given && parseAddress(given) ? given : connection.clientAddress;
  }
  if (trust > 0) {
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded) {
      // Each trusted proxy appends the address it saw; entries left of those it vouches for may be forged.
      const hops = forwarded
        .split(',')
        .map((hop) => hop.trim())
        .filter(Boolean);
      const client = hops[Math.max(0, hops.length - trust)];
      if (client) return client;
    }
  }
  return connection.clientAddress;
}

/**
 * An IPv6 address as its network of `prefixBits` leading bits (`2001:db8:1::/56`), one that carries
 * an IPv4 address (`::ffff:192.0.2.1`, `::ffff:c000:201`, `64:ff9b::c000:201`) as that IPv4
 * address; anything else unchanged.
 */
export function addressKey(text: string, prefixBits: number): string {
  const address = text.includes(':') ? parseAddress(text) : undefined;
  if (!address) return text;
  return address.family === 4 ? formatAddress(address) : `${formatAddress(masked(address, prefixBits))}/${prefixBits}`;
}
