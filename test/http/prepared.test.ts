import { describe, expect, it } from 'vitest';
import { Answer, toResponse } from '../../src/http/answer.ts';
import {
  headerBuilder,
  negotiated,
  pathOf,
  prepareDocument,
  prepareFixed,
  respond as answer,
  type HeaderAssembly,
  type Prepared,
} from '../../src/http/prepared.ts';

/** The prepared answer as the fetch face sends it. */
const respond = async (...args: Parameters<typeof answer>) => toResponse(await answer(...args));

/** A document prepared as the surface does: the path's fixed headers include its cache policy. */
const prepare = (
  value: unknown,
  {
    cacheControl,
    fixed,
    contentType = 'application/json; charset=utf-8',
  }: { cacheControl: string; fixed: Record<string, string>; contentType?: string },
) => prepareDocument(value, { contentType, headers: { ...fixed, 'Cache-Control': cacheControl } });

const fixed = { 'X-Content-Type-Options': 'nosniff' };
const small = { hello: 'world' };
const large = { items: Array.from({ length: 200 }, (_, i) => `item ${i}`) };
const request = (headers: Record<string, string> = {}, method = 'GET') => new Request('https://api.example.com/x', { method, headers });

describe('prepare', () => {
  it('serialises once with a strong ETag, the fixed headers and the GET body length', async () => {
    const rep = await prepare(small, { cacheControl: 'public, max-age=60', fixed });
    const body = new TextEncoder().encode(JSON.stringify(small));
    expect(rep.identity.body).toEqual(body);
    expect(rep.identity.etag).toMatch(/^"[A-Za-z0-9_-]{24}"$/);
    expect(rep.identity.headers).toMatchObject({
      ...fixed,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=60',
      'Content-Length': String(body.byteLength),
    });
    expect(rep.gzip, 'a small body is not compressed').toBeUndefined();
  });

  it('serves text as is with its media type', async () => {
    const rep = await prepare('# Title\n', { contentType: 'text/markdown; charset=utf-8', cacheControl: 'no-store', fixed });
    expect(new TextDecoder().decode(rep.identity.body)).toBe('# Title\n');
    expect(rep.identity.headers['Content-Type']).toBe('text/markdown; charset=utf-8');
  });

  it('serves bytes as they are (a docs page file), not as JSON', async () => {
    const bytes = new TextEncoder().encode('body{margin:0}\n');
    const rep = await prepare(bytes, {
      contentType: 'text/css; charset=utf-8',
      cacheControl: 'public, max-age=31536000, immutable',
      fixed,
    });
    expect(rep.identity.body).toEqual(bytes);
    expect(rep.identity.headers['Content-Length']).toBe(String(bytes.byteLength));
  });

  it('gives the same bytes in another media type another ETag (RFC 9110 section 8.8.3), the same in the same type the same', async () => {
    const markdown = await prepare('# Title\n', { contentType: 'text/markdown; charset=utf-8', cacheControl: 'no-store', fixed });
    const plain = await prepare('# Title\n', { contentType: 'text/plain; charset=utf-8', cacheControl: 'no-store', fixed });
    const again = await prepare('# Title\n', { contentType: 'text/markdown; charset=utf-8', cacheControl: 'public, max-age=60', fixed });
    expect(plain.identity.etag).not.toBe(markdown.identity.etag);
    expect(again.identity.etag).toBe(markdown.identity.etag);
  });

  it('adds a gzip representation with its own ETag (RFC 9110 section 8.8.3) to a large body', async () => {
    const rep = await prepare(large, { cacheControl: 'public, max-age=60', fixed });
    expect(rep.gzip).toBeDefined();
    const coded = await rep.gzip!();
    expect(rep.gzip!(), 'coded once, then the variant itself').toBe(coded);
    expect(coded.etag).not.toBe(rep.identity.etag);
    expect(coded.headers['Content-Encoding']).toBe('gzip');
    expect(rep.identity.headers.Vary).toBe('Accept-Encoding');
    const unzipped = await new Response(new Blob([coded.body]).stream().pipeThrough(new DecompressionStream('gzip'))).json();
    expect(unzipped).toEqual(large);
  });
});

describe('respond', () => {
  it('answers 200 with the body and the per-request headers', async () => {
    const rep = await prepare(small, { cacheControl: 'no-store', fixed });
    const response = await respond(request(), rep, { RateLimit: '"default";r=1;t=2' });
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toBe('"default";r=1;t=2');
    expect(await response.json()).toEqual(small);
  });

  it('answers HEAD without a body but with the GET length', async () => {
    const rep = await prepare(small, { cacheControl: 'no-store', fixed });
    const response = await respond(request({}, 'HEAD'), rep, {});
    expect(await response.text()).toBe('');
    expect(response.headers.get('content-length')).toBe(String(rep.identity.body.byteLength));
  });

  it('answers 304 to a weakly matching If-None-Match or *, without content headers (RFC 9110 section 15.4.5)', async () => {
    const rep = await prepare(small, { cacheControl: 'public, max-age=60', fixed });
    const etag = rep.identity.etag!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"a", ${etag}`, '*']) {
      const response = await respond(request({ 'If-None-Match': ifNoneMatch }), rep, {});
      expect(response.status, ifNoneMatch).toBe(304);
      expect(response.headers.get('etag')).toBe(rep.identity.etag);
      expect(response.headers.get('content-type')).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await respond(request({ 'If-None-Match': '"other"' }), rep, {})).status).toBe(200);
  });

  it('chooses gzip only when Accept-Encoding admits it', async () => {
    const rep = await prepare(large, { cacheControl: 'public, max-age=60', fixed });
    expect((await respond(request({ 'Accept-Encoding': 'br, gzip' }), rep, {})).headers.get('content-encoding')).toBe('gzip');
    expect((await respond(request({ 'Accept-Encoding': 'gzip;q=0, *' }), rep, {})).headers.get('content-encoding')).toBeNull();
    expect((await respond(request(), rep, {})).headers.get('content-encoding')).toBeNull();
    // A 304 for the coded representation compares against its own ETag.
    const coded = await respond(request({ 'Accept-Encoding': 'gzip', 'If-None-Match': rep.identity.etag! }), rep, {});
    expect(coded.status).toBe(200);
  });
});

describe('negotiated', () => {
  it('prepares another media type on the first request that accepts it, once, and serves the default without it', async () => {
    const json = await prepare(small, { cacheControl: 'no-store', fixed });
    let made = 0;
    const markdown = async (): Promise<Prepared> => {
      made++;
      return prepare('# hello', { cacheControl: 'no-store', fixed, contentType: 'text/markdown; charset=utf-8' });
    };
    let kept: Promise<Prepared> | undefined;
    const rep = negotiated('application/json', json, new Map([['text/markdown', () => (kept ??= markdown())]]));
    expect(await (await respond(request(), rep, {})).json()).toEqual(small);
    expect(made).toBe(0);
    for (let i = 0; i < 2; i++) {
      const response = await respond(request({ Accept: 'text/markdown' }), rep, {});
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await response.text()).toBe('# hello');
    }
    expect(made).toBe(1);
  });
});

describe('prepareFixed', () => {
  it('answers its status with the body, its length and no ETag, whatever If-None-Match says', async () => {
    const prepared = prepareFixed(404, { code: 'x' }, { contentType: 'application/problem+json; charset=utf-8', headers: fixed });
    const response = await respond(request({ 'If-None-Match': '*' }), prepared, { RateLimit: 'r' });
    expect(response.status).toBe(404);
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('ratelimit')).toBe('r');
    expect(response.headers.get('content-length')).toBe(String('{"code":"x"}'.length));
    expect(await response.json()).toEqual({ code: 'x' });
  });
});

describe('headerBuilder', () => {
  it.each<HeaderAssembly>(['record', 'template', 'clone'])(
    'puts the same headers together as a %s, the per-request ones overriding, read from the answer or its Response',
    (assembly) => {
      const build = headerBuilder({ A: '1', B: '2' }, assembly);
      const expected = [
        ['a', '1'],
        ['b', '3'],
        ['c', '4'],
      ];
      expect([...new Headers(new Answer(200, build({ B: '3', C: '4' }), null).headers)]).toEqual(expected);
      expect([...new Answer(200, build({ B: '3', C: '4' }), null).toResponse().headers]).toEqual(expected);
      // A header set later (Server-Timing) overrides or joins them, read either way.
      const timed = new Answer(200, build({ B: '3' }), null);
      timed.set('B', '5');
      timed.set('Server-Timing', 'total;dur=1');
      const later = [
        ['a', '1'],
        ['b', '5'],
        ['server-timing', 'total;dur=1'],
      ];
      expect([...timed.toResponse().headers]).toEqual(later);
      expect([...new Headers(timed.headers)]).toEqual(later);
      // The fixed part is not changed by a request.
      expect(new Answer(200, build({}), null).toResponse().headers.get('b')).toBe('2');
    },
  );
});

describe('clone assembly', () => {
  it('answers every request with the whole body, a HEAD with none, and never changes the template', async () => {
    const body = new TextEncoder().encode('{"a":1}');
    const build = headerBuilder({ 'Content-Type': 'application/json', 'Content-Length': String(body.byteLength) }, 'clone');
    for (let i = 0; i < 3; i++) {
      const response = new Answer(200, build({ RateLimit: `r=${i}` }), body).toResponse();
      expect(response.headers.get('ratelimit')).toBe(`r=${i}`);
      expect(await response.text()).toBe('{"a":1}');
    }
    const head = new Answer(200, build({}), null).toResponse();
    expect(head.body).toBeNull();
    expect(head.headers.get('ratelimit')).toBeNull();
    expect(head.headers.get('content-length')).toBe('7');
    const notFound = new Answer(404, build({}), body).toResponse();
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toBe('{"a":1}');
  });
});

describe('pathOf', () => {
  it.each([
    'https://api.example.com/api/v1/product?x=1#top',
    'http://127.0.0.1:8787/',
    'http://[::1]:8787/openapi.json#x',
    'https://api.example.com/a/../api/v1/./health?q=/x',
    'https://api.example.com/%7Eproblems?',
    'https://api.example.com',
  ])('reads the same path as the URL parser from %s', (url) => {
    const request = new Request(url);
    expect(pathOf(request.url)).toBe(new URL(request.url).pathname);
  });
});
