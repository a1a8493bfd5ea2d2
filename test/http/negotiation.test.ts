import { describe, expect, it } from 'vitest';
import { acceptsGzip, admitsJson, isJsonMediaType, mediaTypeChooser } from '../../src/http/negotiation.ts';

/** The product's representations: JSON by default and on ties; the facts as Markdown, also sent as plain text. */
const chooseProductType = mediaTypeChooser(['application/json', 'text/markdown', 'text/plain'] as const);

describe('acceptsGzip (RFC 9110 section 12.5.3)', () => {
  it.each([
    ['gzip', true],
    ['GZIP;q=0.5', true],
    ['br, gzip;q=1.0', true],
    ['*', true],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0, gzip', true],
    ['br', false],
    ['gzip;q=nonsense', false],
    ['', false],
  ])('%j -> %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it('is false without the header', () => {
    expect(acceptsGzip(null)).toBe(false);
  });
});

describe('admitsJson (RFC 9110 section 12.5.1)', () => {
  it.each([
    [null, true],
    ['*/*', true],
    ['application/json', true],
    ['application/json, text/event-stream', true],
    ['application/*;q=0.2', true],
    ['text/html', false],
    ['text/event-stream', false],
    ['application/json;q=0', false],
    ['text/html, application/json;q=0', false],
  ])('%j -> %s', (header, expected) => {
    expect(admitsJson(header)).toBe(expected);
  });
});

describe('remembered decisions', () => {
  it('decide a repeated header the same way, and still decide right past the memory bound', () => {
    for (let i = 0; i < 600; i++) {
      expect(acceptsGzip(`gzip;q=0.${i % 9}, x-${i}`)).toBe(i % 9 !== 0);
      expect(admitsJson(`text/html, application/json;q=${i % 2}, x/y-${i}`)).toBe(i % 2 === 1);
    }
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(admitsJson('text/html')).toBe(false);
    expect(admitsJson('text/html')).toBe(false);
  });
});

describe('isJsonMediaType (RFC 9110 section 8.3.1)', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON', ' application/json ;x=y'])(
    'reads %s as JSON',
    (value) => {
      expect(isJsonMediaType(value)).toBe(true);
    },
  );

  it.each([null, '', 'text/plain', 'application/jsonx', 'application/ld+json', 'application/json-seq', 'text/json'])(
    'reads %s as not JSON',
    (value) => {
      expect(isJsonMediaType(value)).toBe(false);
    },
  );
});

describe("mediaTypeChooser over the product's types (RFC 9110 section 12.5.1)", () => {
  it.each([
    [null, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['text/markdown', 'text/markdown'],
    ['text/plain', 'text/plain'],
    ['TEXT/Markdown; charset=utf-8', 'text/markdown'],
    // Ties go to JSON, then Markdown.
    ['text/markdown, application/json', 'application/json'],
    ['text/markdown;q=0.8, application/json;q=0.8', 'application/json'],
    ['text/*', 'text/markdown'],
    ['text/plain, text/markdown', 'text/markdown'],
    // A clear preference wins.
    ['text/markdown, application/json;q=0.9', 'text/markdown'],
    ['text/markdown, */*;q=0.1', 'text/markdown'],
    ['application/json;q=0.5, text/plain', 'text/plain'],
    ['text/plain;q=0.9, */*;q=0.8', 'text/plain'],
    // The most specific range decides a type's q-value: text/markdown is refused although text/* is welcome.
    ['text/*, text/markdown;q=0', 'text/plain'],
    ['*/*;q=0.1, application/json;q=0', 'text/markdown'],
    // What a browser sends: HTML first, anything else at 0.8, so JSON.
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json'],
    // Nothing offered is acceptable: the default.
    ['image/png', 'application/json'],
    ['text/markdown;q=0, application/json;q=0, text/plain;q=0', 'application/json'],
  ])('%j -> %s', (accept, expected) => {
    expect(chooseProductType(accept)).toBe(expected);
  });
});
