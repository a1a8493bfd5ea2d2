/** The access log: one line per request, through the handler and on its own. */
import { afterAll, describe, expect, it } from 'vitest';
import { withAccessLog } from '../../src/telemetry/access-log.ts';
import { createTelemetry } from '../../src/telemetry/index.ts';
import { BASE, closeHandlers, collector, makeHandler, send } from '../support/handler.ts';

describe('withAccessLog', () => {
  it('writes one line once the answer is ready, with the request id it passes down', async () => {
    const { logger, lines } = collector();
    const seen: (string | undefined)[] = [];
    const serve = withAccessLog(
      async (_request, info) => {
        expect(lines.length, 'nothing is written before the answer').toBe(seen.length);
        seen.push(info.requestId);
        return new Response('x', { status: 201 });
      },
      logger,
      (_request, connection) => `key:${connection.clientAddress}`,
    );
    const put = new Request(`${BASE}/a/b?c=d`, {
      method: 'PUT',
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)' },
    });
    // The observations the handler hands down while the access log is on: each names its request's agent.
    const telemetry = await createTelemetry({}, { storeKind: 'memory', reviewedOn: () => '2026-01-01', accessLog: true });
    await serve(put, { clientAddress: '192.0.2.1', requestId: 'given-id' }, telemetry.observe(put));
    const get = new Request(`${BASE}/`, { headers: { 'user-agent': 'curl/8.5.0' } });
    await serve(get, {}, telemetry.observe(get));
    expect(lines[0]).toMatchObject({
      level: 'info',
      event: 'request',
      requestId: 'given-id',
      method: 'PUT',
      path: '/a/b',
      status: 201,
      client: 'key:192.0.2.1',
      agentClass: 'ai-training',
      agentName: 'GPTBot',
    });
    expect(lines[1]).toMatchObject({ agentClass: 'other', agentName: undefined });
    expect(seen[0]).toBe('given-id');
    expect(seen[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[1]!.requestId).toBe(seen[1]);
  });
});

describe('the access log through the handler', () => {
  afterAll(closeHandlers);

  it('writes one access line per request through the given logger when asked', async () => {
    const { logger, events } = collector();
    const handler = await makeHandler({ logger, accessLog: true });
    const before = Date.now();
    await send(handler, '/api/v1/product', { address: '2001:db8:7:1::9' });
    await send(handler, '/nope', { method: 'HEAD', address: '192.0.2.7' });
    const lines = events('request');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'info', method: 'GET', path: '/api/v1/product', status: 200, client: '2001:db8:7::/56' });
    expect(lines[1]).toMatchObject({ method: 'HEAD', path: '/nope', status: 404, client: '192.0.2.7' });
    for (const line of lines) {
      expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(line.time as string)).toBeGreaterThanOrEqual(before - 1000);
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(lines[0]!.requestId).not.toBe(lines[1]!.requestId);
  });

  it('writes no access line without accessLog', async () => {
    const { logger, lines } = collector();
    const handler = await makeHandler({ logger });
    await send(handler, '/api/v1');
    expect(lines).toEqual([]);
  });

  it('logs a 500 with the request id its problem carries in instance, and in the access line', async () => {
    const { logger, events } = collector();
    const handler = await makeHandler({ logger, accessLog: true });
    // A request whose body cannot even be asked for (a client cut off mid-body is a 400, not this).
    const request = new Request(`${BASE}/mcp`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    let asked = false;
    Object.defineProperty(request, 'body', {
      get() {
        if (asked) return null;
        asked = true;
        throw new Error('client stream broke');
      },
    });
    const response = await handler(request, { clientAddress: '192.0.2.8' });
    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const problem = await response.json();
    expect(JSON.stringify(problem)).not.toContain('client stream broke');
    const [failure] = events('request_failed');
    expect(failure).toMatchObject({ level: 'error', method: 'POST', path: '/mcp', error: { message: 'client stream broke' } });
    expect(problem.instance).toBe(`urn:uuid:${failure!.requestId}`);
    expect(events('request')[0]).toMatchObject({ status: 500, requestId: failure!.requestId });
  });
});
