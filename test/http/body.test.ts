import { describe, expect, it } from 'vitest';
import { BODY_CUT_OFF, bodyTooSlow, readBody } from '../../src/http/body.ts';

const encoder = new TextEncoder();
const request = (body?: BodyInit, headers: Record<string, string> = {}) =>
  new Request('https://api.example.com/mcp', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
const text = (read: Awaited<ReturnType<typeof readBody>>) => ('bytes' in read ? new TextDecoder().decode(read.bytes) : read);
/** A stream of `chunks`, then `end`: closed, errored (the client went away) or left open (never ends). */
function stream(chunks: string[], end: 'close' | 'error' | 'open' = 'close') {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (end === 'close') controller.close();
      if (end === 'error') controller.error(new Error('client went away'));
    },
  });
}

describe('readBody', () => {
  it('reads a body up to the limit, whole or streamed, and no body as empty', async () => {
    const body = 'x'.repeat(100);
    expect(text(await readBody(request(body), 100))).toBe(body);
    expect(text(await readBody(request(stream(['x'.repeat(60), 'x'.repeat(40)])), 100))).toBe(body);
    expect(text(await readBody(request(), 100))).toBe('');
  });

  it('refuses a body over the limit, streamed in any number of chunks', async () => {
    expect(await readBody(request('x'.repeat(101)), 100)).toEqual({ refused: 'payload_too_large' });
    expect(await readBody(request(stream(['x'.repeat(60), 'x'.repeat(60)])), 100)).toEqual({ refused: 'payload_too_large' });
  });

  it('counts the bytes that arrive, not the declared Content-Length', async () => {
    // A Request built here ignores a declared length; a platform in front may pass one on as sent.
    for (const declared of ['10', '-1', '', 'abc', '99999999']) {
      const headers = { 'content-length': declared };
      expect(await readBody(request(stream(['x'.repeat(2_000)]), headers), 1_000), declared).toEqual({ refused: 'payload_too_large' });
      expect(text(await readBody(request(stream(['{"a":1}']), headers), 1_000)), declared).toBe('{"a":1}');
    }
  });

  it.each([undefined, '10'])('calls a body the client cut off a bad request (Content-Length %s)', async (declared) => {
    const headers: Record<string, string> = declared ? { 'content-length': declared } : {};
    expect(request(stream([]), headers).headers.get('content-length')).toBe(declared ?? null);
    expect(await readBody(request(stream(['{"a":'], 'error'), headers), 100)).toEqual({
      refused: 'bad_request',
      detail: BODY_CUT_OFF,
      close: true,
    });
  });

  it.each([undefined, '10'])('stops waiting for a body that never ends at the deadline (Content-Length %s)', async (declared) => {
    const headers: Record<string, string> = declared ? { 'content-length': declared } : {};
    const started = performance.now();
    expect(await readBody(request(stream(['{"a":'], 'open'), headers), 100, 200)).toEqual({
      refused: 'bad_request',
      detail: bodyTooSlow(200),
      close: true,
    });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
