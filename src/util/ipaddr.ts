/**
 * @module Addresses and networks, parsed once as a bigint (hono's parsers), masked and compared. An
 * IPv6 address that carries an IPv4 one is that IPv4 address: the IPv4-mapped prefix `::ffff:0:0/96`
 * (RFC 4291 section 2.5.5.2) and the NAT64 well-known prefix `64:ff9b::/96` (RFC 6052 section 2.1).
 * The client key and the per-network policies both read addresses through it.
 */
import { convertIPv4BinaryToString, convertIPv4ToBinary, convertIPv6BinaryToString, convertIPv6ToBinary } from 'hono/utils/ipaddr';

export interface Address {
  family: 4 | 6;
  bits: bigint;
}

export interface Network extends Address {
  prefix: number;
}

const WIDTH = { 4: 32, 6: 128 } as const;
const MAPPED = 0xffffn;
const NAT64 = 0x64ff9bn << 64n;

/** The address as written, IPv6 with its brackets and zone id dropped; undefined when it is none. */
function parseAsWritten(text: string): Address | undefined {
  try {
    if (!text.includes(':')) return { family: 4, bits: convertIPv4ToBinary(text) };
    const bare = text[0] === '[' || text.includes('%') ? text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '') : text;
    return { family: 6, bits: convertIPv6ToBinary(bare) };
  } catch {
    return undefined;
  }
}

/** The IPv4 address an IPv6 address carries in its last 32 bits, or undefined. */
function carriedIpv4({ family, bits }: Address): Address | undefined {
  if (family !== 6 || (bits >> 32n !== MAPPED && bits >> 32n !== NAT64)) return undefined;
  return { family: 4, bits: bits & 0xffffffffn };
}

/** An address (`192.0.2.7`, `2001:db8::1`, `[fe80::1%eth0]`), IPv4 for one that carries an IPv4 address; undefined if it is none. */
export function parseAddress(text: string): Address | undefined {
  const address = parseAsWritten(text);
  return address && (carriedIpv4(address) ?? address);
}

/** RFC 5952 section 4 for IPv6 (lower case, no leading zeros, the longest run of zero groups as `::`); dotted quad for IPv4. */
export const formatAddress = ({ family, bits }: Address): string =>
  family === 4 ? convertIPv4BinaryToString(bits) : convertIPv6BinaryToString(bits);

/** The address with only its first `prefix` bits kept. */
export function masked({ family, bits }: Address, prefix: number): Address {
  const kept = BigInt(Math.max(0, Math.min(prefix, WIDTH[family])));
  return { family, bits: bits & (((1n << kept) - 1n) << (BigInt(WIDTH[family]) - kept)) };
}

/** A CIDR (`160.79.104.0/21`, `2001:db8::/32`), or the reason it is not one. */
export function parseNetwork(text: string): Network | string {
  const usage = `"${text}" is not an IPv4 or IPv6 network in CIDR notation, such as 160.79.104.0/21 or 2001:db8::/32`;
  const match = /^([0-9A-Fa-f:.]+)\/(\d{1,3})$/.exec(text);
  const address = match ? parseAsWritten(match[1]!) : undefined;
  if (!address) return usage;
  const prefix = Number(match![2]);
  const most = WIDTH[address.family];
  if (prefix > most) return `"${text}": an IPv${address.family} prefix length is 0 to ${most}`;
  const network = { ...masked(address, prefix), prefix };
  if (network.bits !== address.bits) {
    return `"${text}" has address bits set past its /${prefix} prefix: write ${formatAddress(network)}/${prefix}`;
  }
  const carried = prefix >= 96 ? carriedIpv4(address) : undefined;
  if (carried) return `"${text}" holds IPv4 addresses, which are matched as IPv4: write ${formatAddress(carried)}/${prefix - 96}`;
  return network;
}

/** Whether `network` holds `address` (an IPv4 network never holds an IPv6 address, nor the reverse). */
export const contains = (network: Network, address: Address): boolean =>
  network.family === address.family && masked(address, network.prefix).bits === network.bits;
