import { describe, expect, it } from 'vitest';
import { CORS_HEADERS, originAllowed, preflight } from '../src/cors.ts';

describe('CORS', () => {
  it('allows any origin without credentials and exposes the contract headers', () => {
    expect(CORS_HEADERS['Access-Control-Allow-Origin']).toBe('*');
    expect(CORS_HEADERS['Access-Control-Allow-Credentials']).toBeUndefined();
    const exposed = CORS_HEADERS['Access-Control-Expose-Headers']!.split(', ');
    expect(exposed.sort()).toEqual(
      ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag', 'Link', 'Deprecation', 'Sunset'].sort(),
    );
  });

  it('admits requests without Origin, listed origins, or any with *', () => {
    expect(originAllowed(null, ['https://app.example.com'])).toBe(true);
    expect(originAllowed('https://app.example.com', ['https://app.example.com'])).toBe(true);
    expect(originAllowed('https://evil.example', ['https://app.example.com'])).toBe(false);
    expect(originAllowed('https://evil.example', ['*'])).toBe(true);
  });

  it('answers a preflight with 204, the methods and the requested headers', () => {
    const request = new Request('https://api.example.com/mcp', {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-protocol-version' },
    });
    const response = preflight(request, 'POST, OPTIONS', { 'X-Content-Type-Options': 'nosniff' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
