/**
 * Bad input to POST /mcp, as raw HTTP, on every runtime entry. Each request gets what the MCP
 * specification or the contract requires (a tool result with isError, a JSON-RPC error, or an
 * RFC 9457 problem), never a 5xx or a session id, and the endpoint keeps serving afterwards.
 * Requests are framed both as 2025-era clients send them and as the 2026-07-28 client does.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, startEntry, type RunningEntry } from '../../support/entries.ts';
import {
  call,
  ERAS,
  expectJson,
  expectJsonRpcError,
  expectProblem,
  expectJsonRpcAnswer,
  expectStillServing,
  frame,
  nestedRequests,
  initializeBody,
  LEGACY_VERSIONS,
  MODERN,
  post,
  TOOL_NAMES,
  type Era,
} from '../../support/mcp.ts';

const LIMIT = 65536;

/** A body of exactly `size` bytes: a valid request padded with trailing whitespace. */
function padded(body: string, size: number): string {
  const length = new TextEncoder().encode(body).byteLength;
  expect(length).toBeLessThan(size);
  return body + ' '.repeat(size - length);
}

/** The body as a stream, so that it goes out chunked, with no Content-Length to go by. */
function chunked(body: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(body);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 8192));
      offset += 8192;
    },
  });
}

/**
 * One HTTP/1.1 connection, requests sent on it one after the other; each exchange resolves with the
 * answer's status line, or with how the connection ended.
 */
async function keptAlive(base: string) {
  const { hostname, port, host } = new URL(base);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return {
    exchange(headers: Record<string, string>, body: string, path = '/mcp'): Promise<string> {
      const head = Object.entries({ host, ...headers, 'content-length': String(Buffer.byteLength(body)) }).map(
        ([name, value]) => `${name}: ${value}\r\n`,
      );
      return new Promise((resolve) => {
        let received = Buffer.alloc(0);
        const finish = (outcome: string) => {
          socket.off('data', onData).off('close', onClose).off('error', onError);
          resolve(outcome);
        };
        const onData = (chunk: Buffer) => {
          received = Buffer.concat([received, chunk]);
          const text = received.toString('latin1');
          const end = text.indexOf('\r\n\r\n');
          const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
          if (end >= 0 && length && received.byteLength - end - 4 >= Number(length[1])) finish(text.slice(0, text.indexOf('\r\n')));
        };
        const onClose = () => finish('connection closed');
        const onError = (error: NodeJS.ErrnoException) => finish(`connection error ${error.code}`);
        socket.on('data', onData).on('close', onClose).on('error', onError);
        socket.write(`POST ${path} HTTP/1.1\r\n${head.join('')}\r\n${body}`);
      });
    },
    close: () => socket.destroy(),
  };
}

describe.each(ENTRIES)('MCP bad input against the %s entry', (runtime) => {
  let server: RunningEntry;
  let base: string;

  beforeAll(async () => {
    server = await startEntry(runtime, { RATE_LIMIT_QUOTA: '100000' });
    base = server.url;
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(ERAS)('tool calls framed as a %s client sends them', (era: Era) => {
    it('answers a wrong argument type with an isError result naming the argument and the allowed values', async () => {
      const answer = await call(base, era, 'tools/call', { name: 'list_public_resources', arguments: { kind: 5 } });
      expect(answer.status).toBe(200);
      expectJson(answer);
      const { result } = answer.json;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const message: string = result.content[0].text;
      expect(message).toMatch(/\bkind\b/);
      expect(message).toMatch(/docs/);
      await expectStillServing(base);
    });

    it('answers an unknown argument with an isError result naming it', async () => {
      const answer = await call(base, era, 'tools/call', { name: 'list_start_options', arguments: { colour: 'blue' } });
      expect(answer.status).toBe(200);
      expectJson(answer);
      const { result } = answer.json;
      expect(result.isError).toBe(true);
      const message: string = result.content[0].text;
      expect(message).toMatch(/\bcolour\b/);
      expect(message).toMatch(/unknown|unexpected|not allowed|invalid key|unrecognized/i);
      await expectStillServing(base);
    });

    it('answers an unknown tool with a JSON-RPC error (-32602), not a tool result', async () => {
      const answer = await call(base, era, 'tools/call', { name: 'delete_everything', arguments: {} });
      expectJsonRpcError(answer, -32602);
      expect(answer.json.error.message).toMatch(/delete_everything/);
      await expectStillServing(base);
    });

    it('answers malformed JSON with a JSON-RPC parse error (-32700)', async () => {
      const { headers } = frame(era, 'tools/list');
      const answer = await post(base, { headers, body: '{"jsonrpc":"2.0","id":1,"method":' });
      expect(answer.status).toBe(400);
      expectJsonRpcError(answer, -32700);
      expect(answer.json.id).toBeNull();
      await expectStillServing(base);
    });

    it('serves a request without Accept, as JSON', async () => {
      const { headers, body } = frame(era, 'tools/call', { name: 'list_start_options', arguments: {} });
      delete headers.accept;
      const answer = await post(base, { headers, body });
      expect(answer.status).toBe(200);
      expectJson(answer);
      expect(answer.json.result.structuredContent.startOptions.length).toBeGreaterThan(0);
    });

    it.each(['application/json', '*/*'])('serves Accept: %s, as JSON', async (accept) => {
      const { headers, body } = frame(era, 'tools/call', { name: 'list_start_options', arguments: {} });
      const answer = await post(base, { headers: { ...headers, accept }, body });
      expect(answer.status).toBe(200);
      expectJson(answer);
      expect(answer.json.result.structuredContent.startOptions.length).toBeGreaterThan(0);
    });

    it.each(['text/html', 'text/event-stream', 'application/json;q=0, text/html'])(
      'refuses Accept: %s with the 406 problem',
      async (accept) => {
        const { headers, body } = frame(era, 'tools/list');
        expectProblem(await post(base, { headers: { ...headers, accept }, body }), base, 'not_acceptable', 406);
        await expectStillServing(base);
      },
    );

    it('refuses a disallowed Origin with the 403 problem', async () => {
      const { headers, body } = frame(era, 'tools/list');
      const answer = await post(base, { headers: { ...headers, origin: 'https://evil.example' }, body });
      expectProblem(answer, base, 'origin_not_allowed', 403);
      await expectStillServing(base);
    });

    // A refusal answered with the body unread made workerd close the keep-alive connection, and a
    // client already sending its next request on it got a reset (seen by the conformance suite).
    it('keeps the connection open after a refusal, for the next request sent on it', async () => {
      const { headers, body } = frame(era, 'tools/list');
      const socket = await keptAlive(base);
      try {
        const refusals: Record<string, string>[] = [
          { origin: 'https://evil.example' },
          { accept: 'text/html' },
          { 'content-type': 'text/plain' },
        ];
        for (const refusal of refusals) {
          expect(await socket.exchange({ ...headers, ...refusal }, body)).toMatch(/^HTTP\/1\.1 4\d\d /);
          expect(await socket.exchange(headers, body), `after ${JSON.stringify(refusal)}`).toMatch(/^HTTP\/1\.1 200 /);
        }
        // Any problem answer to a request with a body: a known path that takes no POST, an unknown path.
        for (const [path, status] of [
          ['/api/v1', 405],
          ['/nope', 404],
        ] as const) {
          expect(await socket.exchange(headers, body, path)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
          expect(await socket.exchange(headers, body), `after POST ${path}`).toMatch(/^HTTP\/1\.1 200 /);
        }
      } finally {
        socket.close();
      }
    });

    it("serves the service's own origin", async () => {
      const { headers, body } = frame(era, 'tools/list');
      const answer = await post(base, { headers: { ...headers, origin: new URL(base).origin }, body });
      expect(answer.status).toBe(200);
      expectJson(answer);
      expect(answer.json.result.tools).toHaveLength(TOOL_NAMES.length);
    });

    it('refuses Content-Type: text/plain with the 415 problem', async () => {
      const { headers, body } = frame(era, 'tools/list');
      const answer = await post(base, { headers: { ...headers, 'content-type': 'text/plain' }, body });
      expectProblem(answer, base, 'unsupported_media_type', 415);
      await expectStillServing(base);
    });

    it('serves Content-Type: application/json; charset=utf-8', async () => {
      const { headers, body } = frame(era, 'tools/list');
      const answer = await post(base, { headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body });
      expect(answer.status).toBe(200);
      expect(answer.json.result.tools).toHaveLength(TOOL_NAMES.length);
    });

    it(`accepts a body of exactly ${LIMIT} bytes and refuses ${LIMIT + 1} with the 413 problem`, async () => {
      const { headers, body } = frame(era, 'tools/call', { name: 'list_start_options', arguments: {} });
      const atLimit = await post(base, { headers, body: padded(body, LIMIT) });
      expect(atLimit.status, atLimit.text).toBe(200);
      expect(atLimit.json.result.structuredContent.startOptions.length).toBeGreaterThan(0);
      expectProblem(await post(base, { headers, body: padded(body, LIMIT + 1) }), base, 'payload_too_large', 413);
      await expectStillServing(base);
    });

    it("gives JSON nested 5,000 deep in _meta or a tool's arguments a JSON-RPC answer, twice (the replay cache)", async () => {
      for (const { id, headers, body } of nestedRequests(era)) {
        for (let round = 0; round < 2; round++) {
          const answer = await post(base, { headers, body });
          expectJsonRpcAnswer(answer.status, answer.headers.get('content-type'), answer.text, id);
        }
      }
      await expectStillServing(base);
    });

    it(`applies the same limit to a chunked body without Content-Length`, async () => {
      const { headers, body } = frame(era, 'tools/call', { name: 'list_start_options', arguments: {} });
      const atLimit = await post(base, { headers, body: chunked(padded(body, LIMIT)), duplex: 'half' });
      expect(atLimit.status, atLimit.text).toBe(200);
      expect(atLimit.json.result.structuredContent.startOptions.length).toBeGreaterThan(0);
      const over = await post(base, { headers, body: chunked(padded(body, LIMIT + 1)), duplex: 'half' });
      expectProblem(over, base, 'payload_too_large', 413);
      await expectStillServing(base);
    });
  });

  it('logs no failure for a client that goes away mid-body, and keeps serving', async () => {
    const { hostname, port, host } = new URL(base);
    const { headers } = frame('legacy', 'tools/list');
    const head = Object.entries({ host, ...headers, 'content-length': '1000' }).map(([name, value]) => `${name}: ${value}\r\n`);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(`POST /mcp HTTP/1.1\r\n${head.join('')}\r\n{"jsonrpc":`);
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => {});
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expectStillServing(base);
    expect(server.output()).not.toMatch(/request_failed|internal_error/);
  });

  // Batches exist only in revision 2025-03-26 (2025-06-18 removed them); a request without
  // MCP-Protocol-Version is taken as 2025-03-26.
  describe('JSON-RPC batches', () => {
    const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const batchOf = (version: string | undefined, messages: unknown[]) =>
      post(base, { headers: version ? { ...HEADERS, 'mcp-protocol-version': version } : HEADERS, body: JSON.stringify(messages) });

    it.each([['2025-03-26'], [undefined]])('serves a batch under MCP-Protocol-Version %s, answering with an array', async (version) => {
      const answer = await batchOf(version, [
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'list_start_options', arguments: {} } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]);
      expect(answer.status).toBe(200);
      expectJson(answer);
      expect(Array.isArray(answer.json)).toBe(true);
      const byId = Object.fromEntries((answer.json as Array<{ id: string }>).map((message) => [message.id, message]));
      expect(Object.keys(byId).sort()).toEqual(['a', 'b']);
      expect(byId.a).toMatchObject({ result: { tools: expect.any(Array) } });
      expect(byId.b).toMatchObject({ result: { structuredContent: { startOptions: expect.any(Array) } } });
      await expectStillServing(base);
    });

    it('answers a batch of one with an array of one (JSON-RPC 2.0 section 6)', async () => {
      const answer = await batchOf('2025-03-26', [{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }]);
    });

    it('answers a batch of notifications only with 202 and no body', async () => {
      const answer = await batchOf('2025-03-26', [{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
      expect(answer.status).toBe(202);
      expect(answer.text).toBe('');
    });

    it('answers initialize inside a batch with an invalid request error for that message alone', async () => {
      const answer = await post(base, {
        headers: HEADERS,
        body: `[${initializeBody('2025-03-26', 'init')},${JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' })}]`,
      });
      expect(answer.status).toBe(200);
      expect(answer.json).toHaveLength(2);
      expect(answer.json[0]).toMatchObject({ jsonrpc: '2.0', id: 'init', error: { code: -32600 } });
      expect(answer.json[1]).toMatchObject({ id: 99, result: { tools: expect.any(Array) } });
    });

    it('answers an empty batch with one invalid request error, not an array', async () => {
      const answer = await batchOf('2025-03-26', []);
      expect(answer.status).toBe(400);
      expectJsonRpcError(answer, -32600);
    });

    it.each(['2025-06-18', '2025-11-25'])(
      'refuses a batch under %s, which has none, with 400 and an invalid request error',
      async (version) => {
        const answer = await batchOf(version, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
        expect(answer.status).toBe(400);
        expectJsonRpcError(answer, -32600);
        expect(answer.json.id).toBeNull();
        expect(answer.json.error.message).toContain(version);
        await expectStillServing(base);
      },
    );

    it('refuses a batch framed for 2026-07-28 with a JSON-RPC invalid request error', async () => {
      const { headers, body } = frame('modern', 'tools/list');
      const answer = await post(base, { headers, body: `[${body}]` });
      expect(answer.status).toBe(400);
      expectJsonRpcError(answer, -32600);
      await expectStillServing(base);
    });
  });

  describe('protocol versions', () => {
    it.each(LEGACY_VERSIONS)('completes a 2025-era initialize at %s with that version', async (version) => {
      const answer = await post(base, {
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: initializeBody(version),
      });
      expect(answer.status).toBe(200);
      expectJson(answer);
      expect(answer.json.result.protocolVersion).toBe(version);
      expect(answer.json.result.capabilities.tools).toBeDefined();
    });

    it('answers an initialize asking for an unknown version with a 2025 revision it supports', async () => {
      const answer = await post(base, {
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: initializeBody('1999-01-01'),
      });
      expect(answer.status).toBe(200);
      expect(LEGACY_VERSIONS).toContain(answer.json.result.protocolVersion);
    });

    it('refuses an unsupported MCP-Protocol-Version header with 400 and a JSON-RPC error', async () => {
      const answer = await call(base, 'legacy', 'tools/list', {}, { version: '1999-01-01' });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('cache-control'), 'an error answer is never stored').toBe('no-store');
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
      expect(answer.json.error.message).toMatch(/1999-01-01/);
      // It names every revision /mcp serves, the current one included, and nothing else.
      const listed = /supported versions: ([^)]*)/.exec(answer.json.error.message)?.[1]?.split(', ');
      expect(listed?.sort()).toEqual([MODERN, ...LEGACY_VERSIONS].sort());
      await expectStillServing(base);
    });

    it('refuses an unsupported modern revision with -32022 listing the supported ones', async () => {
      const answer = await call(base, 'modern', 'tools/list', {}, { version: '2099-01-01' });
      expectJsonRpcError(answer, -32022);
      expect(answer.json.error.data.supported.sort()).toEqual([MODERN, ...LEGACY_VERSIONS].sort());
      await expectStillServing(base);
    });

    // The contract: one list of revisions, and the -32022 error's list is a subset of discover's (SEP-2575).
    it('answers server/discover with every revision served and the capabilities, none of them changing', async () => {
      const answer = await call(base, 'modern', 'server/discover');
      expect(answer.status).toBe(200);
      expectJson(answer);
      expect(answer.json.result.supportedVersions).toEqual([MODERN, ...LEGACY_VERSIONS]);
      expect(answer.json.result.capabilities).toEqual({
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
        // SEP-2640: the Skills extension, declared by the SDK's SkillsExtension.
        extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
      });
    });
  });

  describe('methods other than POST', () => {
    it('answers a CORS preflight from a disallowed origin with the 403 problem, and from its own origin with 204', async () => {
      const preflight = (origin: string) =>
        fetch(`${base}/mcp`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type, mcp-protocol-version',
          },
        });
      const refused = await preflight('https://evil.example');
      const text = await refused.text();
      expectProblem({ status: refused.status, headers: refused.headers, text, json: JSON.parse(text) }, base, 'origin_not_allowed', 403);
      const allowed = await preflight(new URL(base).origin);
      expect(allowed.status).toBe(204);
      expect((allowed.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim())).toContain('POST');
      await expectStillServing(base);
    });

    it.each(['GET', 'DELETE'])('answers %s /mcp with the 405 problem and Allow', async (method) => {
      const response = await fetch(`${base}/mcp`, {
        method,
        headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      });
      const answer = { status: response.status, headers: response.headers, text: '', json: undefined as any };
      answer.text = await response.text();
      answer.json = JSON.parse(answer.text);
      expectProblem(answer, base, 'method_not_allowed', 405);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow).toContain('POST');
      expect(allow).not.toContain(method);
      await expectStillServing(base);
    });
  });
});
