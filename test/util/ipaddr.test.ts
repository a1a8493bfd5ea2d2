import { describe, expect, it } from 'vitest';
import { contains, formatAddress, masked, parseAddress, parseNetwork, type Network } from '../../src/util/ipaddr.ts';

describe('parseAddress', () => {
  it.each([
    ['192.0.2.7', 4, 0xc0000207n],
    ['0.0.0.0', 4, 0n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['::', 6, 0n],
    ['1::', 6, 1n << 112n],
    ['1:2:3:4:5:6:7:8', 6, 0x00010002000300040005000600070008n],
    ['2001:DB8::1', 6, 0x20010db8000000000000000000000001n],
    ['[2001:db8::1]', 6, 0x20010db8000000000000000000000001n],
    ['fe80::1%eth0', 6, 0xfe800000000000000000000000000001n],
  ])('reads %s as IPv%i %s', (text, family, bits) => {
    expect(parseAddress(text)).toEqual({ family, bits });
  });

  const MAPPED = ['::ffff:192.0.2.7', '::FFFF:c000:207', '0:0:0:0:0:ffff:192.0.2.7'];
  const CARRYING = [...MAPPED, '64:ff9b::c000:207', '64:ff9b::192.0.2.7', '[64:ff9b::c000:207]'];
  it.each(CARRYING)('reads %s, which carries an IPv4 address, as 192.0.2.7', (text) => {
    expect(parseAddress(text)).toEqual({ family: 4, bits: 0xc0000207n });
  });

  const OUTSIDE = ['::c000:207', '2001:db8::c000:207', '64:ff9b:1::c000:207', '64:ff9a::c000:207'];
  it.each(OUTSIDE)('keeps %s, outside both prefixes, as IPv6', (text) => {
    expect(parseAddress(text)?.family).toBe(6);
  });

  const NOT_ADDRESSES = ['256.0.0.1', '1.2.3', '1.2.3.4.5', '1.2.3.x', ' 1.2.3.4', 'unknown', ''];
  const NOT_IPV6 = ['1:2:3', '1::2::3', '1:2:3:4:5:6:7:8:9', '1::2:3:4:5:6:7:8', '12345::', 'g::1', '::ffff:300.1.1.1'];
  it.each([...NOT_ADDRESSES, ...NOT_IPV6])('refuses %j', (text) => {
    expect(parseAddress(text)).toBeUndefined();
  });
});

describe('formatAddress and masked', () => {
  it.each([
    ['2001:db8:1:1::1', 56, '2001:db8:1::'],
    ['2001:db8:1:1f::1', 60, '2001:db8:1:10::'],
    ['1:0:0:2:0:0:0:3', 128, '1:0:0:2::3'],
    ['2001:db8:1:1::1', 0, '::'],
    ['192.0.2.7', 24, '192.0.2.0'],
    ['192.0.2.7', 32, '192.0.2.7'],
  ])('%s kept to /%i is %s (RFC 5952 text for IPv6)', (text, prefix, expected) => {
    expect(formatAddress(masked(parseAddress(text)!, prefix))).toBe(expected);
  });
});

describe('contains', () => {
  const network = (text: string) => parseNetwork(text) as Network;

  it('holds the addresses of its prefix and no others, of its own family only', () => {
    expect(contains(network('160.79.104.0/21'), parseAddress('160.79.111.255')!)).toBe(true);
    expect(contains(network('160.79.104.0/21'), parseAddress('160.79.112.0')!)).toBe(false);
    expect(contains(network('160.79.104.0/21'), parseAddress('::ffff:160.79.104.9')!)).toBe(true);
    expect(contains(network('2001:db8::/32'), parseAddress('2001:db8:ffff::1')!)).toBe(true);
    expect(contains(network('::/0'), parseAddress('192.0.2.7')!)).toBe(false);
    expect(contains(network('0.0.0.0/0'), parseAddress('2001:db8::1')!)).toBe(false);
  });
});

describe('parseNetwork', () => {
  it.each([
    ['160.79.104.0/21', { family: 4, prefix: 21 }],
    ['0.0.0.0/0', { family: 4, prefix: 0 }],
    ['2001:db8::/32', { family: 6, prefix: 32 }],
    ['::/0', { family: 6, prefix: 0 }],
    ['2001:DB8::/32', { family: 6, prefix: 32 }],
  ])('reads %s', (text, expected) => {
    expect(parseNetwork(text)).toMatchObject(expected);
  });

  it.each([
    ['160.79.104.0', /is not an IPv4 or IPv6 network in CIDR notation/],
    ['160.79.104.0/', /is not an IPv4 or IPv6 network/],
    ['160.79.104/21', /is not an IPv4 or IPv6 network/],
    ['300.0.0.0/8', /is not an IPv4 or IPv6 network/],
    ['example.com/24', /is not an IPv4 or IPv6 network/],
    [' 10.0.0.0/8', /is not an IPv4 or IPv6 network/],
    ['[2001:db8::]/32', /is not an IPv4 or IPv6 network/],
    ['fe80::%eth0/64', /is not an IPv4 or IPv6 network/],
    ['10.0.0.0/33', /an IPv4 prefix length is 0 to 32/],
    ['2001:db8::/129', /an IPv6 prefix length is 0 to 128/],
    ['160.79.104.1/21', /has address bits set past its \/21 prefix: write 160\.79\.104\.0\/21/],
    ['2001:db8::1/32', /has address bits set past its \/32 prefix: write 2001:db8::\/32/],
    ['::ffff:10.0.0.0/104', /holds IPv4 addresses, which are matched as IPv4: write 10\.0\.0\.0\/8/],
    ['64:ff9b::c000:200/120', /holds IPv4 addresses, which are matched as IPv4: write 192\.0\.2\.0\/24/],
  ])('refuses %s', (text, reason) => {
    expect(parseNetwork(text)).toMatch(reason);
  });
});
