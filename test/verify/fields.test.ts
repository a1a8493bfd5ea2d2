/** Header fields as verify reads them: RFC 8288 Link values, token lists, media types, and the short `got` text. */
import { afterAll, describe, expect, it } from 'vitest';
import { describe as describeAnswer, linkTargets, mediaType, parseLinks, tokens } from '../../src/verify/fields.ts';
import { BASE, closeHandlers, makeHandler, send } from '../support/handler.ts';

afterAll(closeHandlers);

describe('parseLinks', () => {
  it('reads the Link the service sends on the index', async () => {
    const answer = await send(await makeHandler(), '/api/v1');
    expect(parseLinks(answer.headers.get('link'))).toEqual([
      { uri: `${BASE}/openapi.json`, params: { rel: 'service-desc' } },
      { uri: `${BASE}/.well-known/api-catalog`, params: { rel: 'api-catalog', type: 'application/linkset+json' } },
    ]);
  });

  it('lower-cases parameter names, unescapes quoted values and takes bare ones (RFC 8288 section 3)', () => {
    expect(parseLinks('<https://a.example/x>;REL=next ; Title="say \\"hi\\", then go";anchor="#top"')).toEqual([
      { uri: 'https://a.example/x', params: { rel: 'next', title: 'say "hi", then go', anchor: '#top' } },
    ]);
  });

  it('gives nothing for no field, and stops at text it cannot read', () => {
    expect(parseLinks(null)).toEqual([]);
    expect(parseLinks('')).toEqual([]);
    expect(parseLinks('<https://a.example/1>; rel="a", not a link, <https://a.example/2>; rel="b"').map((link) => link.uri)).toEqual([
      'https://a.example/1',
    ]);
  });
});

describe('linkTargets', () => {
  it('finds a relation inside a space-separated rel, whatever its case', () => {
    const field =
      '<https://a.example/doc>; rel="describedby Service-Desc", <https://a.example/other>; rel="service-desc-old", <https://a.example/bare>';
    expect(linkTargets(field, 'service-desc')).toEqual(['https://a.example/doc']);
    expect(linkTargets(field, 'describedby')).toEqual(['https://a.example/doc']);
    expect(linkTargets(null, 'service-desc')).toEqual([]);
  });
});

describe('tokens', () => {
  it('splits Allow and Access-Control-* lists, lower-cased, empty items dropped', async () => {
    const answer = await send(await makeHandler(), '/mcp');
    expect(tokens(answer.headers.get('allow'))).toEqual(['post', 'options']);
    expect(tokens(' GET,, Head ,')).toEqual(['get', 'head']);
    expect(tokens(null)).toEqual([]);
  });
});

describe('mediaType', () => {
  it('gives type/subtype lower-cased, the charset unquoted, and the other parameters', () => {
    expect(mediaType('Application/JSON; Charset="UTF-8"')).toEqual({
      type: 'application/json',
      charset: 'utf-8',
      params: 'Charset="UTF-8"',
    });
    expect(mediaType('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"')).toEqual({
      type: 'application/linkset+json',
      params: 'profile="https://www.rfc-editor.org/info/rfc9727"',
    });
    expect(mediaType(null)).toEqual({ type: '', params: '' });
  });
});

describe('describe', () => {
  it('gives the status and the media type, or the status alone when there is none', async () => {
    const handler = await makeHandler();
    expect(describeAnswer(await send(handler, '/api/v1/nope'))).toBe('404 application/problem+json');
    const preflight = await send(handler, '/api/v1', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    expect(describeAnswer(preflight)).toBe('204');
  });
});
