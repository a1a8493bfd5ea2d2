/**
 * What verify asks of a tool result, on the tools and results the handler's MCP endpoint really
 * serves: the arguments it makes up, a result valid against the tool's output schema and equal to
 * its text, and the search and fetch connector shapes; each fails, named, on a result changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  argumentsFor,
  connectorProblem,
  resultProblem,
  schemaChecker,
  type SchemaCheck,
  type Tool,
  type ToolResult,
} from '../../src/verify/mcp-results.ts';
import { closeHandlers, makeHandler, send } from '../support/handler.ts';
import { frame, TOOL_NAMES } from '../support/mcp.ts';

let tools: Tool[];
let call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>;
let check: SchemaCheck;

beforeAll(async () => {
  const handler = await makeHandler();
  const rpc = async (method: string, params: Record<string, unknown> = {}) =>
    (await (await send(handler, '/mcp', { method: 'POST', ...frame('legacy', method, params) })).json()).result;
  tools = (await rpc('tools/list')).tools;
  call = (name, args) => rpc('tools/call', { name, arguments: args });
  check = await schemaChecker();
});
afterAll(closeHandlers);

const tool = (name: string) => tools.find((t) => t.name === name)!;
/** The first search result's id, as verify takes it for fetch. */
const firstId = async () => ((await call('search', { query: 'Lumen' })).structuredContent as any).results[0].id as string;

describe('argumentsFor', () => {
  it('makes the arguments of every tool the service lists, fetch once search gave an id', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(tools.map((t) => [t.name, argumentsFor(t, { query: 'Lumen' })])).toEqual([
      ['get_product_overview', {}],
      ['list_public_resources', {}],
      ['list_start_options', {}],
      ['search', { query: 'Lumen' }],
      ['fetch', undefined],
    ]);
    expect(argumentsFor(tool('fetch'), { query: 'Lumen', id: 'overview' })).toEqual({ id: 'overview' });
  });

  it('makes none for another tool with a required input', () => {
    expect(argumentsFor({ name: 'lookup', inputSchema: { required: ['sku'] } }, { query: 'Lumen' })).toBeUndefined();
  });
});

describe('resultProblem', () => {
  it('finds none in the result of each tool the service serves', async () => {
    const known = { query: 'Lumen', id: await firstId() };
    for (const t of tools) expect(resultProblem(t, await call(t.name, argumentsFor(t, known)!), check), t.name).toBeUndefined();
  });

  it('names an isError result with its text', async () => {
    const refused = await call('fetch', { id: 'no-such-document' });
    expect(refused.isError).toBe(true);
    expect(resultProblem(tool('fetch'), refused, check)).toBe(`fetch answered isError: ${refused.content![0]!.text}`);
  });

  it('names a result without structuredContent, or with one the output schema refuses', async () => {
    const result = await call('list_start_options', {});
    expect(resultProblem(tool('list_start_options'), { content: result.content }, check)).toBe(
      'list_start_options has no structuredContent',
    );
    const [first, ...rest] = (result.structuredContent as any).startOptions;
    const problem = resultProblem(
      tool('list_start_options'),
      { ...result, structuredContent: { startOptions: [{ ...first, url: 'not a link' }, ...rest] } },
      check,
    );
    expect(problem).toMatch(/^list_start_options structuredContent \/startOptions\/0\/url /);
    expect(problem).toContain('/startOptions/0/url must match format "uri"');
  });

  it('asks for a text item with the same JSON, whatever its key order', async () => {
    const result = await call('get_product_overview', {});
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(result.structuredContent!).reverse()));
    expect(resultProblem(tool('get_product_overview'), { ...result, content: [{ type: 'text', text: reordered }] }, check)).toBeUndefined();
    const stale = JSON.stringify({ ...result.structuredContent, name: 'Another product' });
    for (const content of [[{ type: 'text', text: stale }], [{ type: 'text', text: 'Lumen Galleries' }], []]) {
      expect(resultProblem(tool('get_product_overview'), { ...result, content }, check)).toBe(
        "get_product_overview has no text content with the structuredContent's JSON",
      );
    }
  });
});

describe('connectorProblem', () => {
  it("finds none in the service's search and fetch results", async () => {
    expect(connectorProblem('search', await call('search', { query: 'Lumen' }))).toBeUndefined();
    expect(connectorProblem('fetch', await call('fetch', { id: await firstId() }))).toBeUndefined();
  });

  it('names a search result that is not one text item, or lacks id, title or url', async () => {
    const result = await call('search', { query: 'Lumen' });
    expect(connectorProblem('search', { ...result, content: [...result.content!, ...result.content!] })).toBe(
      'search: 2 content items, not one text item',
    );
    expect(connectorProblem('search', { ...result, structuredContent: { hits: [] } })).toBe('search: no results array');
    const { url, ...unlinked } = (result.structuredContent as any).results[0];
    expect(connectorProblem('search', { ...result, structuredContent: { results: [unlinked] } })).toBe(
      `search: a result without id, title or url: ${JSON.stringify(unlinked)}`,
    );
  });

  it('names a fetch result without text or url, or with metadata that is not an object', async () => {
    const result = await call('fetch', { id: await firstId() });
    const document = result.structuredContent as any;
    expect(connectorProblem('fetch', { ...result, structuredContent: { ...document, text: '', url: undefined } })).toBe(
      'fetch: no text, url',
    );
    expect(connectorProblem('fetch', { ...result, structuredContent: { ...document, metadata: 'public' } })).toBe(
      'fetch: metadata is not an object',
    );
  });
});

describe('schemaChecker', () => {
  it('validates JSON Schema 2020-12 with formats, and lists every error', () => {
    const schema = {
      type: 'object',
      properties: { url: { type: 'string', format: 'uri' }, tags: { type: 'array', prefixItems: [{ type: 'string' }] } },
      required: ['url'],
    };
    expect(check(schema, { url: 'https://api.example.com/', tags: ['a'] })).toBeUndefined();
    expect(check(schema, { url: 'nowhere', tags: [1] })).toBe('/url must match format "uri"; /tags/0 must be string');
  });
});
