import { describe, expect, it } from 'vitest';
import { originAllowed, preflight } from '../src/cors.ts';

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
    const response = preflight(request, fixed, { RateLimit: '"default";r=1;t=2' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
    expect(response.headers.get('ratelimit')).toBe('"default";r=1;t=2');
    expect(fixed).toEqual({ Allow: 'POST, OPTIONS', 'Cache-Control': 'no-store' });
  });

  it('asks for no request headers when the browser named none', () => {
    const response = preflight(new Request('https://api.example.com/x', { method: 'OPTIONS' }), {}, {});
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
  });
});
