/** The requests of a verify run: counted, reads only, stopped at the budget and at the first 429. */
import { describe, expect, it } from 'vitest';
import { Session, Stop } from '../../src/verify/session.ts';

function counting(status = 200) {
  const seen: string[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push(`${request.method} ${request.url} ${request.headers.get('user-agent')}`);
    return new Response('{}', { status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

describe('Session', () => {
  it('counts and records every request, and names itself', async () => {
    const { fetch, seen } = counting();
    const session = new Session('https://api.example.com', 60, fetch);
    await session.request('/api/v1');
    await session.fetch('https://api.example.com/mcp', {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(session.count).toBe(2);
    expect(session.answers.map((a) => `${a.method} ${a.path} ${a.mcp}`)).toEqual(['GET /api/v1 false', 'POST /mcp true']);
    expect(seen[0]).toMatch(/^GET https:\/\/api\.example\.com\/api\/v1 product-discovery-verify\/\d+\.\d+\.\d+/);
  });

  it('sends no method that writes, and posts only MCP reads', async () => {
    const { fetch, seen } = counting();
    const session = new Session('https://api.example.com', 60, fetch);
    await expect(session.request('/api/v1', { method: 'DELETE' })).rejects.toThrow('verify sends no DELETE');
    const post = (method: string) =>
      session.fetch('https://api.example.com/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }) });
    await expect(post('logging/setLevel')).rejects.toThrow('verify posts only MCP reads');
    await expect(session.fetch('https://api.example.com/mcp', { method: 'POST', body: 'not json' })).rejects.toThrow(
      'verify posts only MCP reads',
    );
    expect(seen).toEqual([]);
  });

  it('stops past the budget', async () => {
    const { fetch } = counting();
    const session = new Session('https://api.example.com', 2, fetch);
    await session.request('/a');
    await session.request('/b');
    await expect(session.request('/c')).rejects.toMatchObject({ reason: 'budget' });
    expect(session.count).toBe(2);
  });

  it('stops at the first 429, and sends nothing after it', async () => {
    const { fetch, seen } = counting(429);
    const session = new Session('https://api.example.com', 60, fetch);
    const stop = await session.request('/api/v1').catch((error) => error);
    expect(stop).toBeInstanceOf(Stop);
    expect(stop.reason).toBe('quota');
    expect(stop.answer.status).toBe(429);
    await expect(session.request('/openapi.json')).rejects.toBe(stop);
    expect(seen).toHaveLength(1);
    expect(session.answers).toEqual([]);
  });
});
