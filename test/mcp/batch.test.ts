/**
 * The batch rule (src/mcp/batch.ts) on its own, serving each message through the real endpoint:
 * batches only under revision 2025-03-26 (or no MCP-Protocol-Version header), always answered
 * with an array, element by element as JSON-RPC 2.0 section 6 says.
 */
import { describe, expect, it } from 'vitest';
import { revisionOf, serveBatch } from '../../src/mcp/batch.ts';
import { MAX_BATCH_MESSAGES } from '../../src/mcp/schemas.ts';
import { BATCH_REVISION } from '../../src/mcp/versions.ts';
import { createMcpEndpoint } from '../../src/mcp/server.ts';
import { sampleFacts } from '../support/handler.ts';
import { LEGACY_VERSIONS, MODERN } from '../support/mcp.ts';

const endpoint = createMcpEndpoint(sampleFacts(), { name: 'test', version: '1.0.0' }, [], 'https://api.example.com');

function requestAt(version?: string): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (version) headers['mcp-protocol-version'] = version;
  return new Request('https://api.example.com/mcp', { method: 'POST', headers });
}

/** Serves through the real endpoint and counts the messages it was given. */
function serving(request: Request) {
  const served: unknown[] = [];
  return { served, serveOne: (message: unknown) => (served.push(message), endpoint(request, message)) };
}

const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const list = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };

async function batch(version: string | undefined, messages: unknown[]) {
  const request = requestAt(version);
  const { served, serveOne } = serving(request);
  const response = await serveBatch(request, messages, serveOne);
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), body: text ? JSON.parse(text) : undefined, served };
}

describe('the revision of a request', () => {
  it('is its MCP-Protocol-Version, or 2025-03-26 without one (2025-06-18, Transports)', () => {
    expect(revisionOf(requestAt('2025-11-25'))).toBe('2025-11-25');
    expect(revisionOf(requestAt())).toBe(BATCH_REVISION);
    expect(BATCH_REVISION).toBe('2025-03-26');
  });
});

describe.each([[BATCH_REVISION], [undefined]])('a batch under MCP-Protocol-Version %s', (version) => {
  it('answers a batch of one with an array of one, the same answer as the message alone', async () => {
    const { status, type, body } = await batch(version, [list(1)]);
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json/);
    const alone = await (await endpoint(requestAt(version), list(1))).json();
    expect(body).toEqual([alone]);
  });

  it('answers every request in order, and nothing for a notification', async () => {
    const { status, body, served } = await batch(version, [ping('a'), notification, list('b'), ping(3)]);
    expect(status).toBe(200);
    expect(body.map((answer: { id: unknown }) => answer.id)).toEqual(['a', 'b', 3]);
    expect(body[1].result.tools.length).toBeGreaterThan(0);
    expect(served).toHaveLength(4);
  });

  it('answers a batch of notifications only with 202 and no body', async () => {
    const { status, body } = await batch(version, [notification, notification]);
    expect(status).toBe(202);
    expect(body).toBeUndefined();
  });

  it('answers each element that is not a JSON-RPC message with its own invalid request error', async () => {
    const { status, body, served } = await batch(version, [1, { jsonrpc: '1.0', id: 2, method: 'ping' }, ping(3)]);
    expect(status).toBe(200);
    expect(body).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } },
      expect.objectContaining({ id: 3, result: {} }),
    ]);
    expect(served).toEqual([ping(3)]);
  });

  it('refuses initialize inside a batch (2025-03-26, Lifecycle) and serves the rest', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: BATCH_REVISION, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const { body, served } = await batch(version, [initialize, ping(2)]);
    expect(body[0]).toMatchObject({ id: 'init', error: { code: -32600, message: expect.stringMatching(/initialize/) } });
    expect(body[1]).toMatchObject({ id: 2, result: {} });
    expect(served).toEqual([ping(2)]);
  });

  it('answers an empty batch with one invalid request error, not an array', async () => {
    const { status, body } = await batch(version, []);
    expect(status).toBe(400);
    expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } });
  });

  it(`refuses a batch of more than ${MAX_BATCH_MESSAGES} messages before serving any`, async () => {
    const { status, body, served } = await batch(
      version,
      Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) => ping(i)),
    );
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32600);
    expect(served).toEqual([]);
    expect(
      (
        await batch(
          version,
          Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) => ping(i)),
        )
      ).body,
    ).toHaveLength(MAX_BATCH_MESSAGES);
  });
});

describe.each([...LEGACY_VERSIONS.filter((version) => version !== BATCH_REVISION), MODERN, '1999-01-01'])('a batch under %s', (version) => {
  it('is refused with 400 and one invalid request error naming the revision, before any message is served', async () => {
    const { status, body, served } = await batch(version, [ping(1)]);
    expect(status).toBe(400);
    expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(version) } });
    expect(served).toEqual([]);
  });
});
