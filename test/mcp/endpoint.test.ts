import { describe, expect, it } from 'vitest';
import { toResponse } from '../../src/http/answer.ts';
import { createMcpHttpEndpoint } from '../../src/mcp/endpoint.ts';
import { MCP_HEADERS, sampleFacts } from '../support/handler.ts';
import { ERAS, expectJsonRpcAnswer, frame, nestedRequests, TOOL_NAMES } from '../support/mcp.ts';
import { createTelemetry } from '../../src/telemetry/index.ts';

/** The observations the handler hands the endpoint with telemetry off. */
const telemetry = await createTelemetry({}, { storeKind: 'memory', reviewedOn: () => '2026-01-01', accessLog: false });

const URL_ = 'https://api.example.com/mcp';
const endpoint = createMcpHttpEndpoint(
  sampleFacts(),
  { name: 'test', version: '1.0.0' },
  [],
  { allowedOrigins: ['https://api.example.com'], maxBodyBytes: 1024 },
  'https://api.example.com',
);

type Outcome = { refused: string } | { response: Response };

async function post(headers: Record<string, string>, body: BodyInit): Promise<Outcome> {
  const request = new Request(URL_, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
  const answer = await endpoint(request, MCP_HEADERS, {}, telemetry.observe(request));
  return 'refused' in answer ? { refused: answer.refused } : { response: toResponse(answer) };
}

const refused = (outcome: Outcome) => ('refused' in outcome ? outcome.refused : undefined);

describe.each(ERAS)('the MCP endpoint over HTTP (%s framing)', (era) => {
  const { headers, body } = frame(era, 'tools/list');

  it('hands an allowed request to the SDK, which answers JSON', async () => {
    const outcome = await post({ ...headers, origin: 'https://api.example.com' }, body);
    expect(refused(outcome)).toBeUndefined();
    const response = (outcome as { response: Response }).response;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await response.json()).result.tools).toHaveLength(TOOL_NAMES.length);
  });

  it.each([['*/*'], ['application/json']])('relaxes Accept %s to what the SDK insists on', async (accept) => {
    const outcome = await post({ ...headers, accept }, body);
    expect((outcome as { response: Response }).response.status).toBe(200);
  });

  it('refuses an origin that is not allowed', async () => {
    expect(refused(await post({ ...headers, origin: 'https://evil.example' }, body))).toBe('origin_not_allowed');
  });

  it('refuses an Accept without JSON', async () => {
    expect(refused(await post({ ...headers, accept: 'text/html' }, body))).toBe('not_acceptable');
  });

  it('refuses a body that is not JSON', async () => {
    expect(refused(await post({ ...headers, 'content-type': 'text/plain' }, body))).toBe('unsupported_media_type');
  });

  it('refuses a body over the limit, declared or streamed', async () => {
    const large = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(2000) } });
    expect(refused(await post(headers, large))).toBe('payload_too_large');
    const stream = new Blob([large]).stream();
    expect(refused(await post(headers, stream))).toBe('payload_too_large');
  });

  it('lets the SDK answer malformed JSON with a JSON-RPC parse error', async () => {
    const outcome = await post(headers, '{"jsonrpc":');
    const response = (outcome as { response: Response }).response;
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32700);
  });
});

describe('JSON nested as deep as a body within the limit allows', () => {
  const roomy = createMcpHttpEndpoint(
    sampleFacts(),
    { name: 'test', version: '1.0.0' },
    [],
    { allowedOrigins: [], maxBodyBytes: 65_536 },
    'https://api.example.com',
  );

  it.each(ERAS)('gets a JSON-RPC answer, never a 500 (%s framing; 5,000 and 30,000 levels)', async (era) => {
    for (const depth of [5_000, 30_000]) {
      for (const { name, id, headers, body } of nestedRequests(era, depth)) {
        expect(JSON.parse(body).jsonrpc, name).toBe('2.0');
        for (let round = 0; round < 2; round++) {
          const request = new Request(URL_, { method: 'POST', headers, body });
          const answered = await roomy(request, MCP_HEADERS, {}, telemetry.observe(request));
          if ('refused' in answered) throw new Error(`${name}: refused ${answered.refused}`);
          const answer = toResponse(answered);
          expectJsonRpcAnswer(answer.status, answer.headers.get('content-type'), await answer.text(), id);
        }
      }
    }
  });
});
