import { parseItem, parseList } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { deprecationNotice } from '../src/deprecation.ts';
import { BASE, get, makeHandler } from './support/handler.ts';

const deprecation = { deprecatedAt: new Date('2027-01-01T00:00:00Z'), sunsetAt: new Date('2027-07-01T00:00:00Z'), successorPath: '/api/v2' };

describe('deprecationNotice', () => {
  it('is absent without configuration', () => {
    expect(deprecationNotice(BASE, undefined)).toBeUndefined();
  });

  it('gives an RFC 9745 Deprecation date, an RFC 8594 Sunset HTTP-date and the successor link', () => {
    const notice = deprecationNotice(BASE, deprecation)!;
    const [item] = parseItem(notice.headers.Deprecation);
    expect(item).toBeInstanceOf(Date);
    expect((item as Date).getTime()).toBe(deprecation.deprecatedAt.getTime());
    expect(notice.headers.Sunset).toBe('Thu, 01 Jul 2027 00:00:00 GMT');
    expect(notice.headers.Sunset).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Date.parse(notice.headers.Sunset)).toBe(deprecation.sunsetAt.getTime());
    expect(notice.successorLink).toBe(`<${BASE}/api/v2>; rel="successor-version"`);
  });
});

describe('a deprecated v1', () => {
  it.each(['/api/v1', '/api/v1/product', '/api/v1/health', '/api/v1/nope'])('announces itself on %s', async (path) => {
    const handle = await makeHandler({ deprecation });
    const response = await handle(get(path));
    expect(response.headers.get('deprecation')).toBe(`@${deprecation.deprecatedAt.getTime() / 1000}`);
    expect(response.headers.get('sunset')).toBe(deprecation.sunsetAt.toUTCString());
    const links = parseList(response.headers.get('link')!.replace(/<([^>]*)>/g, '"$1"'));
    expect(links.map(([value, params]) => [value, params.get('rel')])).toEqual([
      [`${BASE}/openapi.json`, 'service-desc'],
      [`${BASE}/api/v2`, 'successor-version'],
      // RFC 9727 section 3: the API index also links to its catalog.
      ...(path === '/api/v1' ? [[`${BASE}/.well-known/api-catalog`, 'api-catalog']] : []),
    ]);
    await handle.close();
  });

  it.each(['/openapi.json', '/problems/rate_limited', '/nope'])('leaves %s alone', async (path) => {
    const handle = await makeHandler({ deprecation });
    const response = await handle(get(path));
    expect(response.headers.get('deprecation')).toBeNull();
    expect(response.headers.get('sunset')).toBeNull();
    expect(response.headers.get('link')).toBe(`<${BASE}/openapi.json>; rel="service-desc"`);
    await handle.close();
  });

  it('tells callers in the index when and where to migrate', async () => {
    const handle = await makeHandler({ deprecation });
    const index = await (await handle(get('/api/v1'))).json();
    expect(index.deprecation).toEqual({
      deprecatedAt: '2027-01-01T00:00:00.000Z',
      sunsetAt: '2027-07-01T00:00:00.000Z',
      successor: `${BASE}/api/v2`,
    });
    await handle.close();
  });
});
