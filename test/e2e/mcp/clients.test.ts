/**
 * The MCP endpoint through both real clients, on every runtime entry: the current line
 * `@modelcontextprotocol/client` (negotiating revision 2026-07-28) and the 2025-era
 * `@modelcontextprotocol/sdk` Client. Tool definitions, results validated with Ajv against the
 * advertised output schemas, and the same facts as GET /api/v1/product; search and fetch in
 * ChatGPT's connector shapes; the prompts; the resources, read as exactly the bytes REST serves at
 * their URLs; the server's identity, instructions, capabilities and (2026-07-28) cache hints.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, startEntry, type RunningEntry } from '../../support/entries.ts';
import {
  LEGACY_VERSIONS,
  looksLikeCredential,
  MODERN,
  newAjv,
  PROMPT_NAMES,
  propertyNames,
  READ_ONLY,
  TOOL_NAMES,
} from '../../support/mcp.ts';

/** The Agent Skill's SKILL.md over MCP (the Skills extension, SEP-2640). */
const SKILL_URI = 'skill://product-discovery/SKILL.md';

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

interface ListedPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}
type PromptResult = { messages: Array<{ role: string; content: { type: string; text?: string } }> };

/** A result's SEP-2549 cache fields (revision 2026-07-28 only). */
type Cacheable = { ttlMs?: unknown; cacheScope?: unknown };

/**
 * The shapes ChatGPT's connectors read from `search` and `fetch` (OpenAI's MCP server guide): the
 * text of the one content item is this JSON. Written from that guide, not from our schemas.
 */
const SEARCH_SHAPE = {
  type: 'object',
  required: ['results'],
  additionalProperties: false,
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'title', 'url'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', minLength: 1 },
          title: { type: 'string', minLength: 1 },
          url: { type: 'string', format: 'uri' },
        },
      },
    },
  },
};
const FETCH_SHAPE = {
  type: 'object',
  required: ['id', 'title', 'text', 'url'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1 },
    title: { type: 'string', minLength: 1 },
    text: { type: 'string', minLength: 1 },
    url: { type: 'string', format: 'uri' },
    metadata: { type: 'object' },
  },
};

/** What the tests need from either client. */
interface Connected {
  listTools(): Promise<Tool[]>;
  listResources(): Promise<ListedResource[]>;
  listResourceTemplates(): Promise<unknown[]>;
  readResource(uri: string): Promise<ReadResult>;
  listPrompts(): Promise<ListedPrompt[]>;
  getPrompt(name: string, args?: Record<string, string>): Promise<PromptResult>;
  /** The whole results of the cacheable operations, cache fields included where the revision has them. */
  cacheable(resourceUri: string): Promise<Record<string, Cacheable>>;
  capabilities(): Record<string, any> | undefined;
  serverInfo(): Record<string, unknown> | undefined;
  instructions(): string | undefined;
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
  listTools(): Promise<{ tools: unknown[] } & Cacheable>;
  listResources(): Promise<{ resources: unknown[] } & Cacheable>;
  listResourceTemplates(): Promise<{ resourceTemplates: unknown[] } & Cacheable>;
  readResource(params: { uri: string }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: unknown[] } & Cacheable>;
  /** The 2026-07-28 client only: the server/discover result it connected with. */
  getDiscoverResult?(): object | undefined;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  getServerCapabilities(): Record<string, any> | undefined;
  getServerVersion(): Record<string, unknown> | undefined;
  getInstructions(): string | undefined;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

function connected(client: SdkClient, protocolVersion: () => string | undefined, sessionId: () => string | undefined): Connected {
  return {
    listTools: async () => (await client.listTools()).tools as Tool[],
    listResources: async () => (await client.listResources()).resources as ListedResource[],
    listResourceTemplates: async () => (await client.listResourceTemplates()).resourceTemplates,
    readResource: async (uri) => (await client.readResource({ uri })) as ReadResult,
    listPrompts: async () => (await client.listPrompts()).prompts as ListedPrompt[],
    getPrompt: async (name, args) => (await client.getPrompt({ name, ...(args ? { arguments: args } : {}) })) as PromptResult,
    cacheable: async (resourceUri) => ({
      ...(client.getDiscoverResult ? { 'server/discover': (client.getDiscoverResult() ?? {}) as Cacheable } : {}),
      'tools/list': await client.listTools(),
      'resources/list': await client.listResources(),
      'resources/templates/list': await client.listResourceTemplates(),
      'prompts/list': await client.listPrompts(),
      'resources/read': (await client.readResource({ uri: resourceUri })) as Cacheable,
    }),
    capabilities: () => client.getServerCapabilities(),
    serverInfo: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
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
    cacheHints: true,
    async connect(url: string, seen: Seen[]): Promise<Connected> {
      const client = new ModernClient({ name: 'mcp-test-modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      const transport = new ModernTransport(new URL(`${url}/mcp`), { fetch: recordingFetch(seen) });
      await client.connect(transport);
      return connected(
        client,
        () => client.getNegotiatedProtocolVersion(),
        () => transport.sessionId,
      );
    },
  },
  {
    label: '@modelcontextprotocol/sdk (2025 era)',
    expectedVersions: LEGACY_VERSIONS,
    cacheHints: false,
    async connect(url: string, seen: Seen[]): Promise<Connected> {
      const client = new LegacyClient({ name: 'mcp-test-legacy', version: '1.0.0' });
      const transport = new LegacyTransport(new URL(`${url}/mcp`), { fetch: recordingFetch(seen) });
      await client.connect(transport);
      return connected(
        client,
        () => transport.protocolVersion,
        () => transport.sessionId,
      );
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

  describe.each(CLIENTS)('$label', ({ connect, expectedVersions, cacheHints }) => {
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

    it('lists exactly the tools, each titled and described', () => {
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const t of tools) {
        expect(t.title, t.name).toMatch(/\S/);
        expect(t.description, t.name).toMatch(/\S/);
      }
    });

    it('annotates every tool with its title and as read-only, non-destructive, idempotent and closed-world', () => {
      for (const t of tools) expect(t.annotations, t.name).toEqual({ title: t.title, ...READ_ONLY });
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
        // The least a call may carry: each required argument (search's query, fetch's id) as a short string.
        const least = Object.fromEntries(((t.inputSchema.required ?? []) as string[]).map((name) => [name, 'x']));
        expect(validateInput(least), t.name).toBe(true);
        expect(validateInput({ ...least, unexpected: 1 }), `${t.name} refuses unknown arguments`).toBe(false);
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
      for (const bad of [
        'token',
        'galleryToken',
        'password',
        'client_secret',
        'sessionId',
        'apiKey',
        'Authorization',
        'client_id',
        'clientId',
      ]) {
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

    describe("search and fetch, in ChatGPT's connector shapes", () => {
      /** Calls a connector tool: one text item whose text is JSON of the documented shape, equal to structuredContent. */
      async function connector(name: 'search' | 'fetch', args: Record<string, unknown>, shape: object) {
        const structured = await callOk(name, args);
        const result = await client.callTool(name, args);
        expect(result.content).toHaveLength(1);
        expect(result.content![0]!.type).toBe('text');
        const parsed = JSON.parse(result.content![0]!.text!);
        expect(parsed).toEqual(result.structuredContent);
        expect(parsed).toEqual(structured);
        const validate = ajv.compile(shape);
        expect(validate(parsed), ajv.errorsText(validate.errors)).toBe(true);
        return parsed;
      }

      it('search answers the best match first, and every result can be fetched with the same title and URL', async () => {
        const { results } = await connector('search', { query: 'free trial' }, SEARCH_SHAPE);
        expect(results[0]).toMatchObject({ id: 'start:start-free-trial' });
        for (const { id, title, url } of (await connector('search', { query: 'gallery docs pricing' }, SEARCH_SHAPE)).results) {
          expect(await connector('fetch', { id }, FETCH_SHAPE)).toMatchObject({ id, title, url });
        }
      });

      it('search finding nothing is an empty list, not an error', async () => {
        expect(await connector('search', { query: 'zzzz qqqq' }, SEARCH_SHAPE)).toEqual({ results: [] });
      });

      it('fetch serves the overview, each resource and each start option under ids made from the facts', async () => {
        const overview = await connector('fetch', { id: 'overview' }, FETCH_SHAPE);
        expect(overview.url).toBe(`${server.url}/api/v1/product`);
        expect(overview.text).toContain(product.product.summary);
        for (const resource of product.resources as Array<{ id?: string; kind: string; url: string }>) {
          expect((await connector('fetch', { id: `resource:${resource.id ?? resource.kind}` }, FETCH_SHAPE)).url).toBe(resource.url);
        }
        for (const option of product.startOptions as Array<{ id: string; url: string; requiresHumanApproval: boolean }>) {
          const fetched = await connector('fetch', { id: `start:${option.id}` }, FETCH_SHAPE);
          expect(fetched.url).toBe(option.url);
          expect(fetched.metadata.requiresHumanApproval).toBe(option.requiresHumanApproval);
        }
      });

      it('fetch of an unknown id is a tool result with isError naming the id, not a protocol error', async () => {
        const result = await client.callTool('fetch', { id: 'start:no-such-option' });
        expect(result.isError).toBe(true);
        expect(result.content?.[0]?.text).toContain('start:no-such-option');
      });

      it('refuses a query or an id outside 1 to 200 characters with an isError result', async () => {
        for (const [name, args] of [
          ['search', { query: '' }],
          ['search', { query: 'x'.repeat(201) }],
          ['fetch', { id: 'x'.repeat(201) }],
        ] as const) {
          const result = await client.callTool(name, args);
          expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 40)}`).toBe(true);
        }
      });
    });

    describe('prompts', () => {
      it('lists explain_product (no arguments) and plan_safe_start (an optional goal)', async () => {
        const prompts = await client.listPrompts();
        expect(prompts.map((prompt) => prompt.name).sort()).toEqual([...PROMPT_NAMES].sort());
        for (const prompt of prompts) {
          expect(prompt.title, prompt.name).toMatch(/\S/);
          expect(prompt.description, prompt.name).toMatch(/\S/);
        }
        expect(prompts.find((prompt) => prompt.name === 'explain_product')!.arguments ?? []).toEqual([]);
        expect(prompts.find((prompt) => prompt.name === 'plan_safe_start')!.arguments).toEqual([
          { name: 'goal', description: expect.any(String), required: false },
        ]);
      });

      const textOf = (result: PromptResult) => result.messages.map((message) => message.content.text ?? '').join('\n');

      it('explain_product embeds the reviewed overview', async () => {
        const result = await client.getPrompt('explain_product');
        for (const message of result.messages) expect(message).toMatchObject({ role: 'user', content: { type: 'text' } });
        const text = textOf(result);
        for (const line of [product.product.summary, ...(product.product.capabilities as string[]), product.product.reviewedOn])
          expect(text).toContain(line);
      });

      it("plan_safe_start embeds the start options, names those needing a person's approval, and the goal", async () => {
        const options = product.startOptions as Array<{ title: string; url: string; requiresHumanApproval: boolean }>;
        const text = textOf(await client.getPrompt('plan_safe_start', { goal: 'deliver a wedding gallery' }));
        expect(text).toContain('deliver a wedding gallery');
        for (const option of options) expect(text).toContain(option.url);
        const [ask] = (await client.getPrompt('plan_safe_start')).messages;
        for (const option of options) expect(ask!.content.text!.includes(option.title), option.title).toBe(option.requiresHumanApproval);
      });

      it('refuses a goal over 200 characters with a JSON-RPC invalid params error', async () => {
        await expect(client.getPrompt('plan_safe_start', { goal: 'x'.repeat(201) })).rejects.toMatchObject({ code: -32602 });
      });
    });

    it('declares tools, resources and prompts whose lists never change, and no subscriptions', () => {
      const capabilities = client.capabilities()!;
      for (const name of ['tools', 'resources', 'prompts']) expect(capabilities[name], name).toEqual({ listChanged: false });
    });

    it('identifies itself from the facts and gives the approval guidance in its instructions', () => {
      const website = (product.resources as Array<{ kind: string; url: string }>).find((resource) => resource.kind === 'website')!;
      expect(client.serverInfo()).toEqual({
        name: expect.stringContaining(product.product.name as string),
        title: product.product.name,
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        description: product.product.summary,
        websiteUrl: website.url,
      });
      expect(client.instructions()).toMatch(/requiresHumanApproval/);
    });

    it(
      cacheHints
        ? 'marks every cacheable result public for as long as REST lets it be cached'
        : 'adds no cache hints, which this revision does not have',
      async () => {
        const maxAge = Number(/max-age=(\d+)/.exec((await fetch(`${server.url}/api/v1/product`)).headers.get('cache-control') ?? '')?.[1]);
        expect(maxAge).toBe(60);
        for (const [method, result] of Object.entries(await client.cacheable(`${server.url}/llms.txt`))) {
          if (cacheHints) expect(result, method).toMatchObject({ cacheScope: 'public', ttlMs: maxAge * 1000 });
          else expect([result.ttlMs, result.cacheScope], method).toEqual([undefined, undefined]);
        }
      },
    );

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

      it('lists the product, the OpenAPI document and llms.txt, each named, titled, described and annotated, and the Agent Skill', async () => {
        const listed = await client.listResources();
        expect(listed.map((resource) => resource.uri).sort()).toEqual(
          [...RESOURCES.map(({ path }) => `${server.url}${path}`), SKILL_URI].sort(),
        );
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

      it("lists one resource template, the Skills extension's (SEP-2640), and reads the skill as the bytes of /skill.md", async () => {
        expect(await client.listResourceTemplates()).toEqual([{ name: 'io.modelcontextprotocol/skills', uriTemplate: 'skill://{+path}' }]);
        const rest = new Uint8Array(await (await fetch(`${server.url}/skill.md`)).arrayBuffer());
        const { contents } = await client.readResource(SKILL_URI);
        expect(new TextEncoder().encode(contents[0]!.text!)).toEqual(rest);
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
