import { afterAll, describe, expect, it } from 'vitest';
import { closeHandlers } from '../support/handler.ts';
import { toResponse } from '../../src/http/answer.ts';
import { allowedOrigins, originAllowed, originEntry, preflight } from '../../src/http/cors.ts';
import { StartupError } from '../../src/util/startup-error.ts';
import { makeHandler, send } from '../support/handler.ts';

describe('CORS', () => {
  it('admits requests without Origin, listed origins, or any with *', () => {
    expect(originAllowed(null, ['https://app.example.com'])).toBe(true);
    expect(originAllowed('https://app.example.com', ['https://app.example.com'])).toBe(true);
    expect(originAllowed('https://evil.example', ['https://app.example.com'])).toBe(false);
    expect(originAllowed('https://evil.example', ['*'])).toBe(true);
  });

  it('answers a preflight with 204, the path headers, the rate-limit fields and the requested headers', () => {
    const request = new Request('https://api.example.com/mcp', {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-protocol-version' },
    });
    const fixed = { Allow: 'POST, OPTIONS', 'Cache-Control': 'no-store' };
    const response = toResponse(preflight(request, fixed, { RateLimit: '"default";r=1;t=2' }));
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
    expect(response.headers.get('ratelimit')).toBe('"default";r=1;t=2');
    expect(fixed).toEqual({ Allow: 'POST, OPTIONS', 'Cache-Control': 'no-store' });
  });

  it('asks for no request headers when the browser named none', () => {
    const response = toResponse(preflight(new Request('https://api.example.com/x', { method: 'OPTIONS' }), {}, {}));
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
  });
});

describe('the origin rule', () => {
  afterAll(closeHandlers);

  it('reads an entry as an Origin header carries it: * or scheme, host and port, a trailing slash dropped', () => {
    expect(originEntry('*')).toBe('*');
    expect(originEntry('https://app.example.com')).toBe('https://app.example.com');
    expect(originEntry('https://app.example.com/')).toBe('https://app.example.com');
    expect(originEntry('https://APP.example.com:443')).toBeUndefined();
    for (const text of ['https://app.example.com/path', 'app.example.com', 'https://app.example.com?x=1', 'file:///tmp', '']) {
      expect(originEntry(text), text).toBeUndefined();
    }
  });

  it("allows only {base}'s own origin by default, and the given list checked otherwise", () => {
    expect(allowedOrigins(undefined, 'https://api.example.com:8443/prefix')).toEqual(['https://api.example.com:8443']);
    expect(allowedOrigins(['https://app.example.com/', '*'], 'https://api.example.com')).toEqual(['https://app.example.com', '*']);
    expect(() => allowedOrigins(['https://app.example.com', 'app.example.org'], 'https://api.example.com')).toThrow(StartupError);
    expect(() => allowedOrigins(['https://app.example.com', 'app.example.org'], 'https://api.example.com')).toThrow(
      /mcp\.allowedOrigins\[1\]="app\.example\.org": must be a comma-separated list of origins/,
    );
  });

  it('is checked by createHandler too: a bad entry stops it, a trailing slash still admits the origin', async () => {
    await expect(makeHandler({ mcp: { allowedOrigins: ['https://app.example.com/path'] } })).rejects.toThrow(/mcp\.allowedOrigins\[0\]/);
    const handler = await makeHandler({ mcp: { allowedOrigins: ['https://app.example.com/'] } });
    const preflight = (origin: string) =>
      send(handler, '/mcp', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight('https://app.example.com')).status).toBe(204);
    expect((await preflight('https://evil.example')).status).toBe(403);
  });
});
