/**
 * The MCP endpoint through both real clients, on every runtime entry: the current line
 * `@modelcontextprotocol/client` (negotiating revision 2026-07-28) and the 2025-era
 * `@modelcontextprotocol/sdk` Client. Tool definitions, results validated with Ajv against the
 * advertised output schemas, and the same facts as GET /api/v1/product; the resources, read as
 * exactly the bytes REST serves at their URLs.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, startEntry, type RunningEntry } from '../support/entries.ts';
import { LEGACY_VERSIONS, looksLikeCredential, MODERN, newAjv, propertyNames, READ_ONLY, TOOL_NAMES } from '../support/mcp.ts';

interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, any>;
  outputSchema?: Record<string, any>;
  annotations?: Record<string, unknown>;
}
interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: { audience?: string[]; lastModified?: string };
}
type ReadResult = { contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> };

/** What the tests need from either client. */
interface Connected {
  listTools(): Promise<Tool[]>;
  listResources(): Promise<ListedResource[]>;
  listResourceTemplates(): Promise<unknown[]>;
  readResource(uri: string): Promise<ReadResult>;
  capabilities(): Record<string, any> | undefined;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  protocolVersion(): string | undefined;
  sessionId(): string | undefined;
  close(): Promise<void>;
}

interface Seen {
  method: string;
  status: number;
  sessionId: string | null;
  contentType: string | null;
}

/** A fetch that records every answer's status and Mcp-Session-Id header. */
function recordingFetch(seen: Seen[]) {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    seen.push({
      method: init?.method ?? 'GET',
      status: response.status,
      sessionId: response.headers.get('mcp-session-id'),
      contentType: response.headers.get('content-type'),
    });
    return response;
  };
}

/** What both official clients offer under the same names, whatever their own types. */
interface SdkClient {
  listTools(): Promise<{ tools: unknown[] }>;
  listResources(): Promise<{ resources: unknown[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: unknown[] }>;
  readResource(params: { uri: string }): Promise<unknown>;
  getServerCapabilities(): Record<string, any> | undefined;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

function connected(client: SdkClient, protocolVersion: () => string | undefined, sessionId: () => string | undefined): Connected {
  return {
    listTools: async () => (await client.listTools()).tools as Tool[],
    listResources: async () => (await client.listResources()).resources as ListedResource[],
    listResourceTemplates: async () => (await client.listResourceTemplates()).resourceTemplates,
    readResource: async (uri) => (await client.readResource({ uri })) as ReadResult,
    capabilities: () => client.getServerCapabilities(),
    callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    protocolVersion,
    sessionId,
    close: () => client.close(),
  };
}

const CLIENTS = [
  {
    label: '@modelcontextprotocol/client (v2)',
    expectedVersions: [MODERN],
    async connect(url: string, seen: Seen[]): Promise<Connected> {
      const client = new ModernClient({ name: 'mcp-test-modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      const transport = new ModernTransport(new URL(`${url}/mcp`), { fetch: recordingFetch(seen) });
      await client.connect(transport);
      return connected(client, () => client.getNegotiatedProtocolVersion(), () => transport.sessionId);
    },
  },
  {
    label: '@modelcontextprotocol/sdk (2025 era)',
    expectedVersions: LEGACY_VERSIONS,
    async connect(url: string, seen: Seen[]): Promise<Connected> {
      const client = new LegacyClient({ name: 'mcp-test-legacy', version: '1.0.0' });
      const transport = new LegacyTransport(new URL(`${url}/mcp`), { fetch: recordingFetch(seen) });
      await client.connect(transport);
      return connected(client, () => transport.protocolVersion, () => transport.sessionId);
    },
  },
];

describe.each(ENTRIES)('MCP clients against the %s entry', (runtime) => {
  let server: RunningEntry;
  let product: { product: Record<string, unknown> & { reviewedOn: string }; resources: Array<{ kind: string }>; startOptions: unknown[] };

  beforeAll(async () => {
    server = await startEntry(runtime, { RATE_LIMIT_QUOTA: '100000' });
    const response = await fetch(`${server.url}/api/v1/product`);
    expect(response.status).toBe(200);
    product = await response.json();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(CLIENTS)('$label', ({ connect, expectedVersions }) => {
    const seen: Seen[] = [];
    let client: Connected;
    let tools: Tool[];
    const ajv = newAjv();

    beforeAll(async () => {
      client = await connect(server.url, seen);
      tools = await client.listTools();
    });
    afterAll(async () => {
      await client?.close();
    });

    const tool = (name: string) => {
      const found = tools.find((candidate) => candidate.name === name);
      expect(found, `tool ${name} is listed`).toBeDefined();
      return found!;
    };

    /** Calls a tool and checks what every successful result must satisfy. */
    async function callOk(name: string, args: Record<string, unknown> = {}) {
      const result = await client.callTool(name, args);
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
      const { outputSchema } = tool(name);
      const validate = ajv.compile(outputSchema!);
      expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
      expect(JSON.parse(result.content![0]!.text!)).toEqual(result.structuredContent);
      return result.structuredContent!;
    }

    it('negotiates the protocol revision of its era, without a session', () => {
      expect(expectedVersions).toContain(client.protocolVersion());
      expect(client.sessionId()).toBeUndefined();
    });

    it('lists exactly the three tools, each titled and described', () => {
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const t of tools) {
        expect(t.title, t.name).toMatch(/\S/);
        expect(t.description, t.name).toMatch(/\S/);
      }
    });

    it('annotates every tool as read-only, non-destructive, idempotent and closed-world', () => {
      for (const t of tools) expect(t.annotations, t.name).toMatchObject(READ_ONLY);
    });

    it('gives every tool a closed input schema and an object output schema that Ajv compiles', () => {
      for (const t of tools) {
        expect(t.inputSchema.type, t.name).toBe('object');
        expect(t.inputSchema.additionalProperties, t.name).toBe(false);
        expect(t.outputSchema, t.name).toBeDefined();
        expect(t.outputSchema!.type, t.name).toBe('object');
        const validateOutput = ajv.compile(t.outputSchema!);
        expect(validateOutput({}), `${t.name}: an empty object is not a valid result`).toBe(false);
        const validateInput = ajv.compile(t.inputSchema);
        expect(validateInput({}), t.name).toBe(true);
        expect(validateInput({ unexpected: 1 }), `${t.name} refuses unknown arguments`).toBe(false);
      }
    });

    it('describes the optional kind filter of list_public_resources as an enum of the resource kinds', () => {
      const { inputSchema } = tool('list_public_resources');
      expect(Object.keys(inputSchema.properties)).toEqual(['kind']);
      expect(inputSchema.required ?? []).not.toContain('kind');
      const validate = ajv.compile(inputSchema);
      expect(validate({ kind: 'docs' })).toBe(true);
      expect(validate({ kind: 'gallery' })).toBe(false);
      expect(validate({ kind: 5 })).toBe(false);
    });

    it('takes no argument that could carry a credential', () => {
      // The check itself must be able to fail.
      for (const bad of ['token', 'galleryToken', 'password', 'client_secret', 'sessionId', 'apiKey', 'Authorization', 'client_id', 'clientId']) {
        expect(looksLikeCredential(bad), bad).toBe(true);
      }
      for (const t of tools) {
        for (const name of propertyNames(t.inputSchema)) expect(looksLikeCredential(name), `${t.name}.${name}`).toBe(false);
      }
    });

    it('get_product_overview returns the product facts of GET /api/v1/product', async () => {
      expect(await callOk('get_product_overview')).toEqual(product.product);
    });

    it('list_public_resources without kind returns every resource of GET /api/v1/product', async () => {
      expect(await callOk('list_public_resources')).toEqual({ resources: product.resources });
    });

    it('list_public_resources with kind returns only the resources of that kind', async () => {
      const kinds = [...new Set(product.resources.map((resource) => resource.kind))];
      expect(kinds.length).toBeGreaterThan(1);
      for (const kind of kinds) {
        const expected = product.resources.filter((resource) => resource.kind === kind);
        expect(await callOk('list_public_resources', { kind }), kind).toEqual({ resources: expected });
      }
    });

    it('list_start_options returns the start options of GET /api/v1/product', async () => {
      expect(await callOk('list_start_options')).toEqual({ startOptions: product.startOptions });
    });

    it('answers bad arguments with an isError result that names what to fix', async () => {
      const wrongType = await client.callTool('list_public_resources', { kind: 5 });
      expect(wrongType.isError).toBe(true);
      expect(wrongType.content?.[0]?.text).toMatch(/kind/);
      const unknown = await client.callTool('list_start_options', { colour: 'blue' });
      expect(unknown.isError).toBe(true);
      expect(unknown.content?.[0]?.text).toMatch(/colour/);
    });

    it('answers an unknown tool with a JSON-RPC error', async () => {
      await expect(client.callTool('delete_everything')).rejects.toMatchObject({ code: -32602 });
    });

    describe('resources', () => {
      const RESOURCES = [
        { path: '/api/v1/product', mimeType: 'application/json' },
        { path: '/openapi.json', mimeType: 'application/json' },
        { path: '/llms.txt', mimeType: 'text/markdown' },
      ];

      it('declares the resources capability without subscriptions or list-change notices', () => {
        const resources = client.capabilities()?.resources;
        expect(resources).toBeDefined();
        expect(resources.subscribe ?? false).toBe(false);
        expect(resources.listChanged ?? false).toBe(false);
      });

      it('lists the product, the OpenAPI document and llms.txt, each named, titled, described and annotated', async () => {
        const listed = await client.listResources();
        expect(listed.map((resource) => resource.uri).sort()).toEqual(RESOURCES.map(({ path }) => `${server.url}${path}`).sort());
        for (const { path, mimeType } of RESOURCES) {
          const resource = listed.find((candidate) => candidate.uri === `${server.url}${path}`)!;
          expect(resource.mimeType, path).toBe(mimeType);
          for (const field of ['name', 'title', 'description'] as const) expect(resource[field], `${path} ${field}`).toMatch(/\S/);
          expect(resource.annotations?.audience, path).toEqual(['user', 'assistant']);
        }
        const facts = listed.find((resource) => resource.uri.endsWith('/api/v1/product'))!;
        expect(facts.annotations?.lastModified).toBe(`${product.product.reviewedOn}T00:00:00Z`);
      });

      it.each(RESOURCES)('reads $path as exactly the bytes REST serves there', async ({ path, mimeType }) => {
        const rest = await fetch(`${server.url}${path}`);
        expect(rest.status).toBe(200);
        const restBytes = new Uint8Array(await rest.arrayBuffer());
        const { contents } = await client.readResource(`${server.url}${path}`);
        expect(contents).toHaveLength(1);
        expect(contents[0]).toMatchObject({ uri: `${server.url}${path}`, mimeType });
        expect(new TextEncoder().encode(contents[0]!.text!)).toEqual(restBytes);
      });

      it('lists no resource templates', async () => {
        expect(await client.listResourceTemplates()).toEqual([]);
      });

      // SEP-2164 (revision 2026-07-28), which the SDK applies to every revision: Invalid Params with the URI as data.
      it('answers an unknown URI with the JSON-RPC resource-not-found error', async () => {
        const unknown = `${server.url}/api/v1/nope`;
        await expect(client.readResource(unknown)).rejects.toMatchObject({ code: -32602, data: { uri: unknown } });
      });
    });

    it('never received an Mcp-Session-Id, and every request was answered with JSON, not SSE', () => {
      const posts = seen.filter((s) => s.method === 'POST');
      expect(posts.length).toBeGreaterThanOrEqual(2);
      expect(seen.filter((s) => s.sessionId !== null)).toEqual([]);
      for (const answer of posts) {
        // 202 Accepted (no body) answers a notification; every request gets a JSON body.
        expect([200, 202]).toContain(answer.status);
        if (answer.status === 200) expect(answer.contentType ?? '').toMatch(/^application\/json\b/);
      }
    });
  });
});
