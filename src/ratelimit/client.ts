/**
 * @module Client identity: the key a request counts against. IPv4 addresses (IPv4-mapped and NAT64
 * IPv6 ones included) count per address; other IPv6 addresses per network prefix, since one subscriber
 * usually holds a whole /56 and could otherwise rotate addresses to multiply the quota.
 */
import { StartupError } from '../startup-error.ts';

/** At 0 X-Forwarded-For is ignored: the connection's address is the client. */
export const TRUST_PROXY_HOPS_DEFAULT = 0;

/**
 * Where the client's address is read: a number of trusted proxies appending to X-Forwarded-For (0:
 * the connection's address), or the one header a platform in front sets to the client's address
 * alone (CLIENT_IP_HEADER: Fly-Client-IP, CF-Connecting-IP, X-Real-IP).
 */
export type ClientTrust = number | { header: string };

/** The handler's options as a ClientTrust; both set is refused, as one of them would be ignored. */
export function clientTrust({ trustProxyHops, clientIpHeader }: { trustProxyHops?: number; clientIpHeader?: string }): ClientTrust {
  if (clientIpHeader && trustProxyHops) {
    throw new StartupError(
      'Invalid handler options:\n  clientIpHeader and trustProxyHops are both set: the client address comes from one header ' +
        'the platform sets or from X-Forwarded-For behind trusted proxies, not both; remove one.',
    );
  }
  return clientIpHeader ? { header: clientIpHeader } : (trustProxyHops ?? TRUST_PROXY_HOPS_DEFAULT);
}

/**
 * The client's address: the connection's, the platform's header, or behind `trust` proxies the
 * X-Forwarded-For entry the nearest trusted proxy vouches for. Undefined without either (embedded use).
 */
export function clientAddress(request: Request, address: string | undefined, trust: ClientTrust): string | undefined {
  if (typeof trust === 'object') {
    // The platform replaces what a client sent; a value that is not one address did not come from it.
    const given = request.headers.get(trust.header)?.trim();
    return given && isAddress(given) ? given : address;
  }
  if (trust > 0) {
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded) {
      // Each trusted proxy appends the address it saw; entries left of those it vouches for may be forged.
      const hops = forwarded.split(',').map((hop) => hop.trim()).filter(Boolean);
      const client = hops[Math.max(0, hops.length - trust)];
      if (client) return client;
    }
  }
  return address;
}

const isAddress = (text: string) => ipv4Bytes(text) !== undefined || ipv6Groups(text) !== undefined;

/** The client a request counts against. Without an address (embedded use) all such requests share one key. */
export function clientKey(request: Request, address: string | undefined, trust: ClientTrust, ipv6PrefixBits = 56): string {
  const client = clientAddress(request, address, trust);
  return client ? addressKey(client, ipv6PrefixBits) : 'unknown';
}

/**
 * An IPv6 address as its network of `prefixBits` leading bits (`2001:db8:1::/56`), one that carries
 * an IPv4 address (`::ffff:192.0.2.1`, `::ffff:c000:201`, `64:ff9b::c000:201`) as that IPv4
 * address; anything else unchanged.
 */
export function addressKey(address: string, prefixBits: number): string {
  const groups = address.includes(':') ? ipv6Groups(address) : undefined;
  if (!groups) return address;
  const ipv4 = embeddedIpv4(groups);
  if (ipv4) return ipv4;
  const masked = groups.map((group, index) => {
    const bits = Math.min(16, Math.max(0, prefixBits - index * 16));
    return group & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${compress(masked)}/${prefixBits}`;
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, when its first 96 bits are the
 * IPv4-mapped prefix `::ffff:0:0/96` (RFC 4291 section 2.5.5.2) or the NAT64 well-known prefix
 * `64:ff9b::/96` (RFC 6052 section 2.1); otherwise undefined.
 */
export function embeddedIpv4(groups: number[]): string | undefined {
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (!mapped && !nat64) return undefined;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
}

/** The four bytes of a dotted-quad IPv4 address (`192.0.2.7`), or undefined. */
export function ipv4Bytes(text: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  const bytes = match?.slice(1).map(Number);
  return bytes?.every((byte) => byte <= 255) ? bytes : undefined;
}

/** The eight 16-bit groups of an IPv6 address (RFC 4291 section 2.2 text forms, zone id and brackets dropped), or undefined. */
export function ipv6Groups(text: string): number[] | undefined {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!address.includes(':')) return undefined;
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string): number[] | undefined => {
    if (half === '') return [];
    const parts = half.split(':');
    const groups: number[] = [];
    for (const [index, part] of parts.entries()) {
      if (index === parts.length - 1 && part.includes('.')) {
        const bytes = ipv4Bytes(part);
        if (!bytes) return undefined;
        groups.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(parseInt(part, 16));
      else return undefined;
    }
    return groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

/** RFC 5952 section 4: lower-case hex, no leading zeros, the longest run of two or more zero groups as `::`. */
export function compress(groups: number[]): string {
  let best = { start: -1, length: 1 };
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}
