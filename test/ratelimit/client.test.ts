import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/ratelimit/client.ts';

describe('clientKey', () => {
  const request = (forwardedFor?: string) =>
    new Request('http://127.0.0.1/api/v1', { headers: forwardedFor === undefined ? {} : { 'X-Forwarded-For': forwardedFor } });

  it('is the connection address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientKey(request(), '198.51.100.7', 0)).toBe('198.51.100.7');
    expect(clientKey(request('192.0.2.1'), '198.51.100.7', 0)).toBe('198.51.100.7');
    expect(clientKey(request('192.0.2.1, 192.0.2.2'), '198.51.100.7', 0)).toBe('198.51.100.7');
  });

  it('believes as many X-Forwarded-For entries, from the right, as proxies are trusted', () => {
    expect(clientKey(request('192.0.2.66, 192.0.2.1'), '10.0.0.1', 1)).toBe('192.0.2.1');
    expect(clientKey(request('192.0.2.66,192.0.2.1 , 192.0.2.2'), '10.0.0.1', 2)).toBe('192.0.2.1');
    // Fewer entries than trusted proxies: the leftmost one there is.
    expect(clientKey(request('192.0.2.1'), '10.0.0.1', 3)).toBe('192.0.2.1');
    // No header behind a trusted proxy: the connection address.
    expect(clientKey(request(), '10.0.0.1', 1)).toBe('10.0.0.1');
  });

  it('treats an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(clientKey(request(), '::ffff:198.51.100.7', 0)).toBe('198.51.100.7');
    expect(clientKey(request('::ffff:192.0.2.1'), '10.0.0.1', 1)).toBe('192.0.2.1');
  });

  it('without an address, every request shares the fallback key', () => {
    expect(clientKey(request(), undefined, 0)).toBe('unknown');
    expect(clientKey(request('192.0.2.1'), undefined, 0)).toBe('unknown');
  });
});
