/**
 * What src/mcp/server.ts decides on top of the SDK, asked through both official clients and with
 * raw JSON-RPC requests handed straight to createMcpEndpoint: the server's identity and
 * instructions from the facts, capabilities whose lists never change, the 2026-07-28 cache hints on
 * exactly the cacheable results, one list of protocol revisions in server/discover and in the
 * -32022 error, JSON answers without a session on both eras, and the resources it registers.
 * (test/e2e/mcp/clients.test.ts runs the full tool, prompt and resource exchanges on every runtime.)
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeResources, type McpResource } from '../../src/mcp/resources.ts';
import { createMcpEndpoint, type McpEndpoint } from '../../src/mcp/server.ts';
import type { Product } from '../../src/facts/schema.ts';
import { rulesParagraph } from '../../src/facts/product-rules.ts';
import { BASE, sampleFacts } from '../support/handler.ts';
import { ERAS, frame, initializeBody, LEGACY_VERSIONS, MODERN, READ_ONLY, TOOL_NAMES, type Era } from '../support/mcp.ts';

const INFO = { name: 'Lumen Galleries public API', version: '3.2.1' };
const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } };
/** SEP-2549, as long as REST lets the same documents be cached (Cache-Control: public, max-age=60). */
const PUBLIC_HINT = { cacheScope: 'public', ttlMs: 60_000 };
const CACHEABLE = ['server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list', 'resources/read'];
const EVERY_REVISION = [MODERN, ...LEGACY_VERSIONS];

const resourcesOf = (base: string, facts: Product): McpResource[] =>
  describeResources(base, facts, (path) => new TextEncoder().encode(`the body served at ${path}`));

function endpointOver(facts = sampleFacts(), base = BASE): McpEndpoint {
  return createMcpEndpoint(facts, INFO, resourcesOf(base, facts), base);
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** One JSON-RPC request, framed for its era, handed to the endpoint as the HTTP layer hands it over. */
async function rpc(
  endpoint: McpEndpoint,
  era: Era,
  method: string,
  params: Record<string, unknown> = {},
  options: { version?: string } = {},
): Promise<Answer> {
  const { headers, body } = frame(era, method, params, options);
  return answerOf(await endpoint(new Request(`${BASE}/mcp`, { method: 'POST', headers, body }), JSON.parse(body)));
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

/**
 * A fetch that hands each POST straight to the endpoint, with its body parsed, as src/mcp/endpoint.ts
 * does; GET and DELETE get the 405 the service answers them with before they reach server.ts.
 */
function straightTo(endpoint: McpEndpoint) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST, OPTIONS' } });
    const text = await request.clone().text();
    return endpoint(request, JSON.parse(text));
  };
}

describe('createMcpEndpoint', () => {
  const facts = sampleFacts();
  const endpoint = endpointOver(facts);
  const website = facts.resources.find((resource) => resource.kind === 'website')!;
  const identity = {
    name: INFO.name,
    title: facts.product.name,
    version: INFO.version,
    description: facts.product.summary,
    websiteUrl: website.url,
  };

  describe('through the 2026-07-28 client', () => {
    let client: ModernClient;
    beforeAll(async () => {
      client = new ModernClient({ name: 'server-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new ModernTransport(new URL(`${BASE}/mcp`), { fetch: straightTo(endpoint) }));
    });
    afterAll(() => client?.close());

    it('discovers the current revision', () => {
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    });

    it('learns the identity the facts give, the instructions and capabilities that never change', () => {
      expect(client.getServerVersion()).toEqual(identity);
      expect(client.getInstructions()).toMatch(/requiresHumanApproval/);
      expect(client.getServerCapabilities()).toEqual(CAPABILITIES);
    });

    it('reads in server/discover every revision /mcp serves, with its cache hint', () => {
      expect(client.getDiscoverResult()).toMatchObject({ supportedVersions: EVERY_REVISION, ...PUBLIC_HINT });
    });
  });

  describe('through the 2025-era client', () => {
    let client: LegacyClient;
    let transport: LegacyTransport;
    beforeAll(async () => {
      client = new LegacyClient({ name: 'server-test', version: '1.0.0' });
      transport = new LegacyTransport(new URL(`${BASE}/mcp`), { fetch: straightTo(endpoint) });
      await client.connect(transport);
    });
    afterAll(() => client?.close());

    it('negotiates the newest 2025 revision, with no session', () => {
      expect(transport.protocolVersion).toBe(LEGACY_VERSIONS[0]);
      expect(transport.sessionId).toBeUndefined();
    });

    it('learns the same identity, instructions and capabilities', () => {
      expect(client.getServerVersion()).toEqual(identity);
      expect(client.getInstructions()).toMatch(/requiresHumanApproval/);
      expect(client.getServerCapabilities()).toEqual(CAPABILITIES);
    });
  });

  describe('its identity and instructions', () => {
    it('leave websiteUrl out when the facts list no website', async () => {
      const withoutWebsite = sampleFacts();
      withoutWebsite.resources = withoutWebsite.resources.filter((resource) => resource.kind !== 'website');
      const { json } = await rpc(endpointOver(withoutWebsite), 'legacy', 'initialize', {
        protocolVersion: LEGACY_VERSIONS[0],
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      });
      expect(json.result.serverInfo).toEqual({
        name: INFO.name,
        title: facts.product.name,
        version: INFO.version,
        description: facts.product.summary,
      });
    });

    it("carry the facts' logo as serverInfo.icons on both eras, and none without one", async () => {
      const withLogo = sampleFacts();
      withLogo.product.logo = { url: 'https://www.example.com/logo.png', mediaType: 'image/png', sizes: ['512x512'] };
      const icons = [{ src: 'https://www.example.com/logo.png', mimeType: 'image/png', sizes: ['512x512'] }];
      const logoEndpoint = endpointOver(withLogo);
      const legacy = await rpc(logoEndpoint, 'legacy', 'initialize', {
        protocolVersion: LEGACY_VERSIONS[0],
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      });
      expect(legacy.json.result.serverInfo.icons).toEqual(icons);
      const modern = await rpc(logoEndpoint, 'modern', 'server/discover');
      expect(modern.json.result._meta['io.modelcontextprotocol/serverInfo'].icons).toEqual(icons);
      const plain = await rpc(endpoint, 'modern', 'server/discover');
      expect(plain.json.result._meta['io.modelcontextprotocol/serverInfo']).not.toHaveProperty('icons');
    });

    it('name the product, say nothing is changed, and send start options needing approval to a person', async () => {
      const renamed = sampleFacts();
      renamed.product.name = 'Other Studio';
      const { json } = await rpc(endpointOver(renamed), 'modern', 'server/discover');
      const instructions: string = json.result.instructions;
      expect(instructions).toContain('Other Studio');
      expect(instructions).toMatch(/No tool creates or changes anything/);
      expect(instructions).toMatch(/search, then fetch/);
      // The privacy and approval rules in the words every text shares (llms.txt, the skill, the OpenAPI description).
      expect(instructions.endsWith(` ${rulesParagraph(renamed)}`)).toBe(true);
      expect(instructions).toContain("An agent may show a start option that needs a person's approval, never take it for someone.");
    });
  });

  describe('cache hints', () => {
    const params: Record<string, Record<string, unknown>> = { 'resources/read': { uri: `${BASE}/llms.txt` } };

    it.each(CACHEABLE)('mark %s public for 60 s on the current revision', async (method) => {
      const { status, json } = await rpc(endpoint, 'modern', method, params[method]);
      expect(status).toBe(200);
      expect(json.result).toMatchObject(PUBLIC_HINT);
    });

    it('are left off what is not cacheable: tool calls and prompts', async () => {
      const call = await rpc(endpoint, 'modern', 'tools/call', { name: 'list_start_options', arguments: {} });
      const prompt = await rpc(endpoint, 'modern', 'prompts/get', { name: 'explain_product' });
      for (const { json } of [call, prompt]) {
        expect(json.result).not.toHaveProperty('ttlMs');
        expect(json.result).not.toHaveProperty('cacheScope');
      }
    });

    it('are left off on the 2025 revisions, which do not have them', async () => {
      for (const method of CACHEABLE.filter((name) => name !== 'server/discover')) {
        const { json } = await rpc(endpoint, 'legacy', method, params[method]);
        expect(json.result, method).not.toHaveProperty('ttlMs');
        expect(json.result, method).not.toHaveProperty('cacheScope');
      }
    });
  });

  describe('the protocol revisions', () => {
    it('server/discover lists every one, keeping the rest of its result and a correct length', async () => {
      const { status, headers, text, json } = await rpc(endpoint, 'modern', 'server/discover');
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      const length = headers.get('content-length');
      if (length !== null) expect(Number(length)).toBe(new TextEncoder().encode(text).length);
      expect(json.result.supportedVersions).toEqual(EVERY_REVISION);
      expect(json.result.capabilities).toEqual(CAPABILITIES);
      expect(json.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: INFO.name, version: INFO.version });
    });

    it('the unsupported-version error (-32022) lists every one and what was asked', async () => {
      const { status, json } = await rpc(endpoint, 'modern', 'tools/list', {}, { version: '2099-01-01' });
      expect(status).toBe(400);
      expect(json.error).toMatchObject({ code: -32022, data: { supported: EVERY_REVISION, requested: '2099-01-01' } });
    });

    it('other refusals stay as the SDK words them', async () => {
      const { headers, body } = frame('modern', 'tools/list');
      const mismatch = await answerOf(
        await endpoint(
          new Request(`${BASE}/mcp`, { method: 'POST', headers: { ...headers, 'mcp-method': 'prompts/list' }, body }),
          JSON.parse(body),
        ),
      );
      expect(mismatch.status).toBe(400);
      expect(mismatch.json.error.code).not.toBe(-32022);
      expect(mismatch.json.error.message).toMatch(/Mcp-Method/);
    });

    it('a 2025-era initialize naming an unknown revision is answered with the newest 2025 one', async () => {
      const { headers } = frame('legacy', 'initialize');
      for (const asked of ['2024-11-05', '2099-01-01']) {
        const body = initializeBody(asked);
        const { json } = await answerOf(await endpoint(new Request(`${BASE}/mcp`, { method: 'POST', headers, body }), JSON.parse(body)));
        expect(json.result.protocolVersion, asked).toBe(LEGACY_VERSIONS[0]);
      }
    });
  });

  describe.each(ERAS)('every request on its own (%s framing)', (era) => {
    it('is answered with JSON and no session, a tool call needing no handshake first', async () => {
      const { status, headers, json } = await rpc(endpoint, era, 'tools/call', { name: 'list_start_options', arguments: {} });
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(/^application\/json/);
      expect(headers.get('mcp-session-id')).toBeNull();
      expect(json.result.structuredContent.startOptions).toEqual(facts.startOptions);
    });

    it('lists the tools titled and annotated read-only, with the same schemas every time', async () => {
      const first = (await rpc(endpoint, era, 'tools/list')).json.result.tools;
      const again = (await rpc(endpoint, era, 'tools/list')).json.result.tools;
      expect(first.map((tool: { name: string }) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const tool of first) expect(tool.annotations, tool.name).toEqual({ title: tool.title, ...READ_ONLY });
      expect(again).toEqual(first);
    });

    it('answers a tool with its structured content and the same JSON as text', async () => {
      const { json } = await rpc(endpoint, era, 'tools/call', { name: 'search', arguments: { query: 'free trial' } });
      expect(json.result.content).toEqual([{ type: 'text', text: JSON.stringify(json.result.structuredContent) }]);
    });
  });

  it('gives both eras the same tool schemas', async () => {
    const [legacy, modern] = await Promise.all(ERAS.map(async (era) => (await rpc(endpoint, era, 'tools/list')).json.result.tools));
    const schemas = (tools: Array<{ name: string; inputSchema: unknown; outputSchema: unknown }>) =>
      Object.fromEntries(tools.map(({ name, inputSchema, outputSchema }) => [name, { inputSchema, outputSchema }]));
    expect(schemas(modern)).toEqual(schemas(legacy));
  });

  describe('the resources it registers', () => {
    it.each(ERAS)('lists each under its URI and reads it back as the text given, typed (%s framing)', async (era) => {
      const resources = resourcesOf(BASE, facts);
      const listed = (await rpc(endpoint, era, 'resources/list')).json.result.resources;
      expect(listed.map((resource: { uri: string }) => resource.uri)).toEqual(resources.map((resource) => resource.uri));
      for (const { uri, mimeType, text } of resources) {
        const { json } = await rpc(endpoint, era, 'resources/read', { uri });
        expect(json.result.contents, uri).toEqual([{ uri, mimeType, text }]);
      }
    });

    it('reads a resource under the URI it lists, however {base} is written', async () => {
      // Capitals in the host and the scheme's default port: the same resource, written another way.
      const base = 'https://Discovery.Example.com:443/Studio';
      const served = endpointOver(facts, base);
      const listed: string[] = (await rpc(served, 'modern', 'resources/list')).json.result.resources.map(
        (resource: { uri: string }) => resource.uri,
      );
      expect(listed).toContain('https://discovery.example.com/Studio/llms.txt');
      for (const uri of listed) {
        const { json } = await rpc(served, 'modern', 'resources/read', { uri });
        expect(
          json.result.contents.map((content: { uri: string }) => content.uri),
          uri,
        ).toEqual([uri]);
      }
    });
  });
});
