/**
 * Over quota on /mcp, through the handler and both official clients: the 429 problem with
 * `retryAfter` by default, and with MCP_RATE_LIMIT_ANSWER=jsonrpc the gateways' answer (a JSON-RPC
 * error with the request's id and `data.retryAfter`, an isError tool result naming the seconds).
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handler.ts';
import { loadConfig } from '../../src/startup/config.ts';
import { checkRateLimitAnswer, overQuotaBody, RATE_LIMITED_CODE } from '../../src/mcp/over-quota.ts';
import { BASE, closeHandlers, makeHandler, send } from '../support/handler.ts';
import { frame, type Era } from '../support/mcp.ts';
import { awayFromWindowEdge, limits } from '../support/ratelimit.ts';

const WINDOW = 3600;
let nextClient = 1;
const freshClient = () => `198.51.100.${nextClient++}`;

async function handlerWith(rateLimitAnswer: 'http' | 'jsonrpc' | undefined, quota = 3): Promise<Handler> {
  await awayFromWindowEdge(WINDOW);
  return makeHandler({ rateLimit: { quota, windowSeconds: WINDOW }, mcp: { rateLimitAnswer } });
}

/** A fetch into the handler from one client address, keeping the last answer to a POST. */
function fetchInto(handler: Handler, address: string) {
  const seen: { last?: Response } = {};
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await handler(request, { clientAddress: address });
    if (request.method === 'POST') seen.last = response.clone();
    return response;
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

interface Connected {
  /** A request no client caches (the 2026-07-28 client keeps tools/list for its ttlMs). */
  getPrompt(): Promise<unknown>;
  callTool(name: string): Promise<{ isError?: boolean; content: unknown }>;
  close(): Promise<void>;
}

async function connect(era: Era, fetch: typeof globalThis.fetch): Promise<Connected> {
  const url = new URL(`${BASE}/mcp`);
  if (era === 'modern') {
    const client = new ModernClient({ name: 'over-quota-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new ModernTransport(url, { fetch }));
    return {
      getPrompt: () => client.getPrompt({ name: 'explain_product' }),
      callTool: (name) => client.callTool({ name, arguments: {} }) as never,
      close: () => client.close(),
    };
  }
  const client = new LegacyClient({ name: 'over-quota-test', version: '1.0.0' });
  await client.connect(new LegacyTransport(url, { fetch }));
  return {
    getPrompt: () => client.getPrompt({ name: 'explain_product' }),
    callTool: (name) => client.callTool({ name, arguments: {} }) as never,
    close: () => client.close(),
  };
}

/** Calls `prompts/get` until it fails; the error it failed with. */
async function untilRefused(client: Connected): Promise<any> {
  for (let i = 0; i < 10; i++) {
    try {
      await client.getPrompt();
    } catch (error) {
      return error;
    }
  }
  throw new Error('never refused');
}

describe.each<Era>(['modern', 'legacy'])('over quota on /mcp through the %s client', (era) => {
  afterAll(closeHandlers);

  it('answers the 429 problem with retryAfter, the seconds also in its detail', async () => {
    const handler = await handlerWith(undefined);
    const { fetch, seen } = fetchInto(handler, freshClient());
    const client = await connect(era, fetch);
    const error = await untilRefused(client);
    expect(String(error.message)).toMatch(/429/);
    const answer = seen.last!;
    expect(answer.status).toBe(429);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await answer.json();
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(body).toMatchObject({ code: 'rate_limited', 'violated-policies': ['default'], retryAfter });
    expect(body.detail).toContain(`try again in ${retryAfter} seconds`);
    await client.close();
  });

  it('with rateLimitAnswer jsonrpc, gives prompts/get a JSON-RPC error with data.retryAfter and tools/call an isError result', async () => {
    const handler = await handlerWith('jsonrpc');
    const { fetch, seen } = fetchInto(handler, freshClient());
    const client = await connect(era, fetch);
    const error = await untilRefused(client);
    const answer = seen.last!;
    expect(answer.status).toBe(200);
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(limits(answer).remaining).toBe(0);
    expect(error.code).toBe(RATE_LIMITED_CODE);
    expect(error.data).toEqual({ retryAfter, policy: 'default' });
    expect(String(error.message)).toContain(`${retryAfter} seconds`);

    const result = await client.callTool('list_start_options');
    expect(result.isError).toBe(true);
    // A second may pass between the two answers: the text names the wait of its own answer.
    const waitNow = Number(seen.last!.headers.get('retry-after'));
    expect(waitNow).toBeGreaterThan(0);
    expect(JSON.stringify(result.content)).toContain(`try again in ${waitNow} seconds`);
    await client.close();
  });
});

describe('the JSON-RPC answer over quota, raw', () => {
  afterAll(closeHandlers);
  const wait = { retryAfter: 42, policy: 'agents' };

  it('carries the id of each request, answers nothing to a notification, and a batch only under 2025-03-26', () => {
    const list = { jsonrpc: '2.0', id: 'a', method: 'tools/list' };
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search', arguments: { query: 'x' } } };
    const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect(overQuotaBody('2026-07-28', list, wait)).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: RATE_LIMITED_CODE, message: expect.stringContaining('42 seconds'), data: wait },
    });
    const content = [{ type: 'text', text: expect.stringContaining('try again in 42 seconds') }];
    expect(overQuotaBody('2026-07-28', call, wait)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content, isError: true, resultType: 'complete' },
    });
    expect(overQuotaBody('2025-11-25', call, wait)).toEqual({ jsonrpc: '2.0', id: 7, result: { content, isError: true } });
    expect(overQuotaBody('2025-11-25', note, wait)).toBeUndefined();
    expect(overQuotaBody('2025-11-25', 'not a message', wait)).toBeUndefined();
    const batch = overQuotaBody('2025-03-26', [list, note, call], wait) as any[];
    expect(batch.map((answer) => answer.id)).toEqual(['a', 7]);
    expect(overQuotaBody('2025-11-25', [list, call], wait)).toBeUndefined();
    expect(overQuotaBody('2025-03-26', [note], wait)).toBeUndefined();
  });

  it('keeps the headers of a 429 on the 200, and the problem for a body holding no request', async () => {
    const handler = await handlerWith('jsonrpc', 1);
    const address = freshClient();
    const { headers, body } = frame('modern', 'tools/list', {}, { id: 99 });
    expect((await send(handler, '/mcp', { method: 'POST', headers, body, address })).status).toBe(200);
    const over = await send(handler, '/mcp', { method: 'POST', headers, body, address });
    expect(over.status).toBe(200);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.headers.get('ratelimit')).toMatch(/r=0/);
    expect(over.headers.get('access-control-allow-origin')).toBe('*');
    expect(over.headers.get('cache-control')).toBe('no-store');
    expect((await over.json()).id).toBe(99);
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const refused = await send(handler, '/mcp', { method: 'POST', headers, body: notification, address });
    expect(refused.status).toBe(429);
    expect((await refused.json()).retryAfter).toBeGreaterThan(0);
    // REST keeps its 429 problem, with the same retryAfter member.
    const rest = await send(handler, '/api/v1/product', { address });
    expect(rest.status).toBe(429);
    expect((await rest.json()).retryAfter).toBe(Number(rest.headers.get('retry-after')));
  });

  it('refuses an unknown rateLimitAnswer naming the option', async () => {
    // In the words of the environment's refusal, and its opening line.
    const words = 'must be "http" (the 429 problem) or "jsonrpc" (HTTP 200 with a JSON-RPC answer)';
    expect(() => loadConfig({ MCP_RATE_LIMIT_ANSWER: 'grpc' })).toThrow(`MCP_RATE_LIMIT_ANSWER="grpc": ${words}`);
    expect(() => checkRateLimitAnswer('grpc')).toThrow(`Invalid configuration:\n  mcp.rateLimitAnswer="grpc": ${words}`);
    await expect(makeHandler({ mcp: { rateLimitAnswer: 'soap' as never } })).rejects.toThrow(
      /^Invalid configuration:\n {2}mcp\.rateLimitAnswer/,
    );
  });
});
