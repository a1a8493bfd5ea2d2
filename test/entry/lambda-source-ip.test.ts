import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sourceIp } from '../../src/entry/lambda-source-ip.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/lambda/${name}.json`, import.meta.url), 'utf8'));

describe('sourceIp: the client address in a Lambda event', () => {
  it.each([
    ['api-gateway-v2', '192.0.2.1'],
    ['function-url', '123.123.123.123'],
    ['api-gateway-v1', '192.0.2.1'],
    ['alb', '72.12.164.125'],
  ])('reads the documented %s event', (name, address) => {
    expect(sourceIp(fixture(name))).toBe(address);
  });

  it('ignores X-Forwarded-For where the platform gives the source address', () => {
    for (const name of ['api-gateway-v2', 'function-url', 'api-gateway-v1']) {
      const event = fixture(name);
      event.headers['x-forwarded-for'] = '198.51.100.66';
      expect(sourceIp(event)).not.toBe('198.51.100.66');
    }
  });

  it('takes the last X-Forwarded-For entry behind an ALB: the one the balancer appended', () => {
    const event = fixture('alb');
    event.headers['x-forwarded-for'] = '198.51.100.66, 10.0.0.1,203.0.113.9';
    expect(sourceIp(event)).toBe('203.0.113.9');
  });

  it('reads multi-value headers behind an ALB that sends them, whatever the case of the name', () => {
    const { headers: _headers, ...event } = fixture('alb');
    expect(sourceIp({ ...event, multiValueHeaders: { 'X-Forwarded-For': ['198.51.100.66', '203.0.113.10'] } })).toBe('203.0.113.10');
  });

  it('reads no address from an X-Forwarded-For value that is not text, behind an ALB', () => {
    const { headers: _headers, ...event } = fixture('alb');
    for (const value of [{ __proto__: null }, [{ __proto__: null }, 7], 42, null, { toString: () => '198.51.100.66' }]) {
      expect(sourceIp({ ...event, multiValueHeaders: { 'x-forwarded-for': value as never } })).toBeUndefined();
      expect(sourceIp({ ...event, headers: { 'x-forwarded-for': value as never } })).toBeUndefined();
    }
    expect(sourceIp({ ...event, multiValueHeaders: { 'x-forwarded-for': [7 as never, '203.0.113.10'] } })).toBe('203.0.113.10');
  });

  it('has no address for an ALB event without the header, or an event without a request context', () => {
    const { headers: _headers, ...event } = fixture('alb');
    expect(sourceIp(event)).toBeUndefined();
    expect(sourceIp({})).toBeUndefined();
  });
});
