/** What an MCP answer says of its outcome, and the trace context a message carries in params._meta. */
import { describe, expect, it } from 'vitest';
import { metaCarrier, outcomeOf } from '../../src/telemetry/mcp-outcome.ts';

const json = (body: unknown, contentType = 'application/json') =>
  new Response(JSON.stringify(body), { headers: { 'content-type': contentType } });

describe('outcomeOf', () => {
  it('reads a JSON-RPC error code, a tool result with isError, and nothing else', async () => {
    expect(await outcomeOf(json({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'x' } }))).toEqual({ errorCode: -32602 });
    expect(await outcomeOf(json({ jsonrpc: '2.0', id: 1, result: { content: [], isError: true } }))).toEqual({ toolError: true });
    expect(await outcomeOf(json({ jsonrpc: '2.0', id: 1, result: { content: [], isError: false } }))).toEqual({});
    expect(await outcomeOf(json({ error: { code: -32600 } }, 'text/plain'))).toEqual({});
    expect(await outcomeOf(new Response('{not json', { headers: { 'content-type': 'application/json' } }))).toEqual({});
  });

  it('leaves the answer readable', async () => {
    const response = json({ jsonrpc: '2.0', id: 1, result: {} });
    await outcomeOf(response);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('metaCarrier', () => {
  it('takes traceparent and tracestate from params._meta, and nothing without a traceparent', () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(metaCarrier({ params: { _meta: { traceparent, tracestate: 'a=1' } } })).toEqual({ traceparent, tracestate: 'a=1' });
    expect(metaCarrier({ params: { _meta: { traceparent } } })).toEqual({ traceparent });
    expect(metaCarrier({ params: { _meta: { tracestate: 'a=1' } } })).toBeUndefined();
    expect(metaCarrier({ params: {} })).toBeUndefined();
    expect(metaCarrier(null)).toBeUndefined();
  });
});
