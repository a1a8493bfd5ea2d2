import { parseItem, parseList } from 'structured-headers';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDeprecation, deprecationNotice } from '../../src/contract/deprecation.ts';
import { StartupError } from '../../src/util/startup-error.ts';
import { BASE, closeHandlers, get, makeHandler } from '../support/handler.ts';

const deprecation = {
  deprecatedAt: new Date('2027-01-01T00:00:00Z'),
  sunsetAt: new Date('2027-07-01T00:00:00Z'),
  successorPath: '/api/v2',
};

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

describe('checkDeprecation', () => {
  const refusal = (given: Parameters<typeof checkDeprecation>[0], names?: Parameters<typeof checkDeprecation>[1]) => {
    try {
      checkDeprecation(given, names);
    } catch (error) {
      expect(error).toBeInstanceOf(StartupError);
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  it('announces nothing without dates, and keeps a valid announcement as given', () => {
    expect(checkDeprecation(undefined)).toBeUndefined();
    expect(checkDeprecation({ successorPath: '/api/v3' })).toBeUndefined();
    expect(checkDeprecation(deprecation)).toEqual(deprecation);
    expect(checkDeprecation({ deprecatedAt: deprecation.deprecatedAt, sunsetAt: deprecation.sunsetAt })?.successorPath).toBe('/api/v2');
  });

  it('accepts a sunset exactly 90 days after the deprecation', () => {
    expect(checkDeprecation({ ...deprecation, sunsetAt: new Date('2027-04-01T00:00:00Z') })).toBeDefined();
  });

  it('refuses a sunset less than 90 days after, naming the options and the earliest date', () => {
    const message = refusal({ ...deprecation, sunsetAt: new Date('2027-01-02T00:00:00Z') });
    expect(message).toContain('deprecation.sunsetAt is 1.0 days after deprecation.deprecatedAt');
    expect(message).toContain('set deprecation.sunsetAt to 2027-04-01T00:00:00.000Z or later');
  });

  it('names the settings as the caller calls them', () => {
    const names = { deprecatedAt: 'DEPRECATION_DATE', sunsetAt: 'SUNSET_DATE', successorPath: 'SUCCESSOR_PATH' };
    expect(refusal({ deprecatedAt: deprecation.deprecatedAt }, names)).toContain('SUNSET_DATE is unset');
    const short = refusal({ ...deprecation, sunsetAt: new Date('2027-03-01T00:00:00Z') }, names);
    expect(short).toContain('SUNSET_DATE is 59.0 days after DEPRECATION_DATE');
  });

  it('refuses one date without the other, a date that is not one, and a successor that is not a path', () => {
    expect(refusal({ sunsetAt: deprecation.sunsetAt })).toContain('deprecation.deprecatedAt is unset');
    expect(refusal({ ...deprecation, sunsetAt: new Date('July') })).toContain('deprecation.sunsetAt is not a valid Date');
    expect(refusal({ ...deprecation, sunsetAt: '2027-07-01' as unknown as Date })).toContain('deprecation.sunsetAt is not a valid Date');
    expect(refusal({ ...deprecation, successorPath: 'api/v2' })).toContain('deprecation.successorPath="api/v2": must be a path');
  });
});

describe('createHandler with a deprecation', () => {
  afterAll(closeHandlers);

  it('refuses to announce a sunset tomorrow, naming the option', async () => {
    const now = Date.now();
    const tomorrow = { deprecatedAt: new Date(now), sunsetAt: new Date(now + 86_400_000), successorPath: '/api/v2' };
    const refused = makeHandler({ deprecation: tomorrow });
    await expect(refused).rejects.toBeInstanceOf(StartupError);
    await expect(refused).rejects.toThrow(
      /deprecation\.sunsetAt is 1\.0 days after deprecation\.deprecatedAt; callers are owed at least 90 days/,
    );
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
