import { afterEach, describe, expect, it } from 'vitest';
import { addressKey, clientTrust, type ClientTrust } from '../../src/ratelimit/client.ts';
import { createRateLimit } from '../../src/ratelimit/index.ts';
import { closeHandlers, get, makeHandler } from '../support/handler.ts';
import { environmentRefusal, optionRefusal, problemOf } from '../support/refusals.ts';

afterEach(closeHandlers);

/** The key a request counts under, from the rate limit that counts it (the `default` policy). */
async function clientKey(request: Request, address: string | undefined, trust: ClientTrust, ipv6PrefixBits = 56): Promise<string> {
  const rateLimit = await createRateLimit({ ipv6PrefixBits }, trust, () => {});
  return rateLimit.keyOf(request, { clientAddress: address });
}

describe('the key a client counts under', () => {
  const request = (forwardedFor?: string) =>
    new Request('http://127.0.0.1/api/v1', { headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor } });

  it('is the connection address when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    expect(await clientKey(request(), '198.51.100.7', 0)).toBe('198.51.100.7');
    expect(await clientKey(request('192.0.2.1'), '198.51.100.7', 0)).toBe('198.51.100.7');
    expect(await clientKey(request('192.0.2.1, 192.0.2.2'), '198.51.100.7', 0)).toBe('198.51.100.7');
  });

  it('believes as many X-Forwarded-For entries, from the right, as proxies are trusted', async () => {
    expect(await clientKey(request('192.0.2.66, 192.0.2.1'), '10.0.0.1', 1)).toBe('192.0.2.1');
    expect(await clientKey(request('192.0.2.66,192.0.2.1 , 192.0.2.2'), '10.0.0.1', 2)).toBe('192.0.2.1');
    // Fewer entries than trusted proxies: the leftmost one there is.
    expect(await clientKey(request('192.0.2.1'), '10.0.0.1', 3)).toBe('192.0.2.1');
    // No header behind a trusted proxy: the connection address.
    expect(await clientKey(request(), '10.0.0.1', 1)).toBe('10.0.0.1');
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address', async () => {
    expect(await clientKey(request(), '::ffff:198.51.100.7', 0)).toBe('198.51.100.7');
    expect(await clientKey(request('::ffff:192.0.2.1'), '10.0.0.1', 1)).toBe('192.0.2.1');
  });

  it('with a platform header, believes that header alone, and only when it holds one address', async () => {
    const sent = (headers: Record<string, string>) => new Request('http://127.0.0.1/api/v1', { headers });
    const fly = { header: 'Fly-Client-IP' };
    expect(await clientKey(sent({ 'Fly-Client-IP': '203.0.113.9', 'X-Forwarded-For': '192.0.2.1' }), '10.0.0.1', fly)).toBe('203.0.113.9');
    expect(await clientKey(sent({ 'fly-client-ip': ' 2001:db8:1:1::1 ' }), '10.0.0.1', fly)).toBe('2001:db8:1::/56');
    // Absent, or not an address (a list, a name): the connection's address, never X-Forwarded-For.
    expect(await clientKey(sent({ 'X-Forwarded-For': '192.0.2.1' }), '10.0.0.1', fly)).toBe('10.0.0.1');
    expect(await clientKey(sent({ 'Fly-Client-IP': '192.0.2.1, 192.0.2.2' }), '10.0.0.1', fly)).toBe('10.0.0.1');
    expect(await clientKey(sent({ 'Fly-Client-IP': 'unknown' }), '10.0.0.1', fly)).toBe('10.0.0.1');
  });

  it('refuses a platform header and trusted proxies together, naming both options', () => {
    expect(clientTrust({ clientIpHeader: 'X-Real-IP' })).toEqual({ header: 'X-Real-IP' });
    expect(clientTrust({ clientIpHeader: 'X-Real-IP', trustProxyHops: 0 })).toEqual({ header: 'X-Real-IP' });
    expect(clientTrust({ trustProxyHops: 2 })).toBe(2);
    expect(clientTrust({})).toBe(0);
    expect(() => clientTrust({ clientIpHeader: 'X-Real-IP', trustProxyHops: 1 })).toThrow(/clientIpHeader and trustProxyHops are both set/);
  });

  it.each([
    ['Fly-Client-IP, X-Real-IP', /must be one header name/],
    ['X-Forwarded-For', /is a list a client can start with forged entries: set (TRUST_PROXY_HOPS|trustProxyHops) to the number/],
    ['forwarded', /forged entries/],
  ])('refuses the header %j from the environment and from createHandler in the same words', async (value, words) => {
    const fromEnvironment = problemOf(environmentRefusal({ CLIENT_IP_HEADER: value }), 'CLIENT_IP_HEADER');
    const fromOptions = problemOf(await optionRefusal({ clientIpHeader: value }), 'clientIpHeader');
    expect(fromEnvironment).toMatch(words);
    // The same words, each naming the other setting as its own way in calls it.
    expect(fromOptions).toBe(fromEnvironment.replace('TRUST_PROXY_HOPS', 'trustProxyHops'));
  });

  it('refuses both sources from the environment and from createHandler in the same words, naming each way in its own', async () => {
    const fromEnvironment = environmentRefusal({ CLIENT_IP_HEADER: 'X-Real-IP', TRUST_PROXY_HOPS: '1' });
    const fromOptions = await optionRefusal({ clientIpHeader: 'X-Real-IP', trustProxyHops: 1 });
    expect(fromEnvironment).toMatch(/CLIENT_IP_HEADER and TRUST_PROXY_HOPS are both set: .* not both; unset one\.$/);
    expect(fromOptions).toBe(
      fromEnvironment.replaceAll('CLIENT_IP_HEADER', 'clientIpHeader').replaceAll('TRUST_PROXY_HOPS', 'trustProxyHops'),
    );
  });

  it('without an address, every request shares the fallback key', async () => {
    expect(await clientKey(request(), undefined, 0)).toBe('unknown');
    expect(await clientKey(request('192.0.2.1'), undefined, 0)).toBe('unknown');
  });

  it('counts IPv6 clients per /56 by default: one allocation shares a key, the next one does not', async () => {
    const key = (address: string) => clientKey(request(address), '10.0.0.1', 1);
    expect(await key('2001:db8:1:1::1')).toBe('2001:db8:1::/56');
    expect(await key('2001:db8:1:ff::2')).toBe(await key('2001:db8:1:1::1'));
    expect(await key('2001:db8:2::1')).not.toBe(await key('2001:db8:1:1::1'));
    expect(await clientKey(request(), '2001:db8:1:1::1', 0, 64)).toBe('2001:db8:1:1::/64');
  });
});

describe("the connection's address", () => {
  /** A way in's connection whose address is a getter (as Bun's entry passes it), counting its reads. */
  function connection(address: string) {
    const read = { count: 0 };
    return {
      read,
      info: {
        get clientAddress() {
          read.count++;
          return address;
        },
      },
    };
  }

  it('is read only when no header names the client, once a request, with or without the access log', async () => {
    for (const accessLog of [false, true]) {
      const proxied = await makeHandler({ trustProxyHops: 1, accessLog, logger: () => {} });
      const behindProxy = connection('10.0.0.1');
      const answer = await proxied(get('/api/v1/product', { headers: { 'X-Forwarded-For': '192.0.2.1' } }), behindProxy.info);
      expect(answer.status).toBe(200);
      expect(behindProxy.read.count, `a forwarded request, access log ${accessLog}`).toBe(accessLog ? 1 : 0);
      const direct = connection('10.0.0.1');
      expect((await proxied(get('/api/v1/product'), direct.info)).status).toBe(200);
      expect(direct.read.count, `no X-Forwarded-For, access log ${accessLog}`).toBe(1);
    }
    const platform = await makeHandler({ clientIpHeader: 'Fly-Client-IP' });
    const named = connection('10.0.0.1');
    await platform(get('/api/v1/product', { headers: { 'Fly-Client-IP': '203.0.113.9' } }), named.info);
    expect(named.read.count).toBe(0);
  });
});

describe('addressKey', () => {
  it.each([
    ['2001:db8:1:1::1', 56, '2001:db8:1::/56'],
    ['2001:DB8:0001:00FF:0000:0000:0000:0002', 56, '2001:db8:1::/56'],
    ['2001:db8:1:1::1', 64, '2001:db8:1:1::/64'],
    ['2001:db8:1:1::1', 128, '2001:db8:1:1::1/128'],
    ['2001:db8:ffff:ffff::', 32, '2001:db8::/32'],
    ['2001:db8:1:1::1', 60, '2001:db8:1::/60'],
    ['2001:db8:1:1f::1', 60, '2001:db8:1:10::/60'],
    ['::', 56, '::/56'],
    ['::1', 128, '::1/128'],
    ['fe80::1%eth0', 64, 'fe80::/64'],
    ['fe80::1%25eth0', 128, 'fe80::1/128'],
    ['[2001:db8::1]', 128, '2001:db8::1/128'],
    ['1:0:0:2:0:0:0:3', 128, '1:0:0:2::3/128'],
    // Near the NAT64 well-known prefix but outside 64:ff9b::/96 (RFC 6052): an ordinary IPv6 address.
    ['64:ff9b:1::c000:207', 128, '64:ff9b:1::c000:207/128'],
    ['64:ff9b::1:c000:207', 128, '64:ff9b::1:c000:207/128'],
    ['64:ff9a::c000:207', 56, '64:ff9a::/56'],
  ])('%s as a /%i network is %s', (address, bits, key) => {
    expect(addressKey(address, bits)).toBe(key);
  });

  it.each(['::ffff:192.0.2.1', '::FFFF:192.0.2.1', '::ffff:c000:201', '0:0:0:0:0:ffff:192.0.2.1'])(
    'counts the IPv4-mapped %s as 192.0.2.1',
    (address) => {
      expect(addressKey(address, 56)).toBe('192.0.2.1');
    },
  );

  it.each(['64:ff9b::c000:207', '64:ff9b::192.0.2.7', '64:FF9B:0:0:0:0:C000:0207', '[64:ff9b::c000:207]'])(
    'counts the NAT64 %s as the IPv4 address it carries, 192.0.2.7, at any prefix length',
    (address) => {
      expect(addressKey(address, 56)).toBe('192.0.2.7');
      expect(addressKey(address, 128)).toBe('192.0.2.7');
    },
  );

  it('counts a NAT64 client and the IPv4 client it stands for as one', async () => {
    const request = new Request('http://127.0.0.1/api/v1');
    expect(await clientKey(request, '64:ff9b::c000:207', 0)).toBe(await clientKey(request, '192.0.2.7', 0));
    expect(await clientKey(request, '64:ff9b::c000:208', 0)).toBe('192.0.2.8');
  });

  it.each(['192.0.2.1', 'unknown', '1:2:3', '1::2::3', '1:2:3:4:5:6:7:8:9', '1::2:3:4:5:6:7:8', '12345::', 'g::1', '::ffff:300.1.1.1'])(
    'leaves %s as it is (IPv4 or not an IPv6 address)',
    (text) => {
      expect(addressKey(text, 56)).toBe(text);
    },
  );
});
