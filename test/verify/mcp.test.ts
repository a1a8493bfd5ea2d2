/**
 * The MCP checks through the official client on both eras, against the handler's real endpoint:
 * they pass as it serves, and each fails, named, when a front makes the endpoint break what it
 * checks (a session id, SSE, an endpoint out of reach, a tool not read-only, other tools than the
 * index lists, resources that differ from REST, prompts without messages). The run's stop goes up.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import type { HandlerOptions } from '../../src/handler.ts';
import { mcpChecks, type McpContext } from '../../src/verify/mcp.ts';
import type { Check } from '../../src/verify/report.ts';
import { Stop, type Answer } from '../../src/verify/session.ts';
import { BASE, closeHandlers } from '../support/handler.ts';
import { LEGACY_VERSIONS, MODERN, TOOL_NAMES } from '../support/mcp.ts';
import { changed, fields, sessionOf, withHeaders, type Change } from '../support/verify.ts';

afterAll(closeHandlers);

const IDS = ['mcp.modern', 'mcp.legacy', 'mcp.tools', 'mcp.search', 'mcp.fetch', 'mcp.resources', 'mcp.prompts'];

/** A run's context as verify builds it before the MCP checks: the REST documents the resources mirror, and the index's `mcp`. */
async function contextOf(
  change: Change = {},
  { options = {}, limit }: { options?: Partial<HandlerOptions>; limit?: number } = {},
): Promise<McpContext> {
  const session = await sessionOf(change, options, limit);
  const gets = new Map<string, Answer>();
  for (const path of ['/api/v1', '/api/v1/product', '/openapi.json', '/llms.txt']) gets.set(path, await session.request(path));
  return { session, servedBase: BASE, index: JSON.parse(gets.get('/api/v1')!.body).mcp, gets, query: 'Lumen' };
}

/** A front that edits the JSON-RPC result of MCP answers to `method`, in both eras. */
function editResult(method: string, edit: (result: any) => void): Change {
  const sent = new WeakMap<Request, Promise<string>>();
  return {
    request: (request) => (request.method === 'POST' && sent.set(request, request.clone().text()), request),
    answer: async (answer, request) => {
      const body = await sent.get(request);
      if (body === undefined || JSON.parse(body).method !== method || answer.status !== 200) return answer;
      const message = await answer.json();
      edit(message.result);
      return new Response(JSON.stringify(message), { status: 200, headers: fields(answer.headers, { 'content-length': undefined }) });
    },
  };
}

const failures = (checks: Check[]) => checks.filter((check) => !check.ok).map((check) => [check.id, check.got]);

describe('mcpChecks', () => {
  it('passes on the endpoint as served, through both eras, each exchange recorded as a POST to /mcp', async () => {
    const context = await contextOf();
    const from = context.session.answers.length;
    const { checks, serverVersions } = await mcpChecks(context);
    expect(checks.map((check) => [check.id, check.ok])).toEqual(IDS.map((id) => [id, true]));
    expect(checks.slice(0, 2).map((check) => check.got)).toEqual([
      `${MODERN}, serverInfo ${pkg.version}`,
      `${LEGACY_VERSIONS[0]}, serverInfo ${pkg.version}`,
    ]);
    expect(serverVersions).toEqual([
      { where: `serverInfo (${MODERN})`, version: pkg.version },
      { where: `serverInfo (${LEGACY_VERSIONS[0]})`, version: pkg.version },
    ]);
    const exchanged = context.session.answers.slice(from);
    expect(exchanged.every((answer) => answer.mcp && answer.path === '/mcp')).toBe(true);
    expect(exchanged.filter((answer) => answer.method === 'POST').length).toBeGreaterThan(10);
  });

  it('skips the current era when the index does not list its revision', async () => {
    const context = await contextOf();
    const { checks, serverVersions } = await mcpChecks({ ...context, index: { ...context.index, protocolVersions: LEGACY_VERSIONS } });
    expect(checks.map((check) => [check.id, check.ok])).toEqual(IDS.filter((id) => id !== 'mcp.modern').map((id) => [id, true]));
    expect(serverVersions.map((server) => server.where)).toEqual([`serverInfo (${LEGACY_VERSIONS[0]})`]);
  });

  it('fails both eras when a front mints Mcp-Session-Id, or turns JSON answers into SSE', async () => {
    const minted = await mcpChecks(await contextOf({ answer: (answer) => withHeaders(answer, { 'mcp-session-id': 'abc' }) }));
    expect(failures(minted.checks)).toEqual([
      ['mcp.modern', 'Mcp-Session-Id on /mcp'],
      ['mcp.legacy', 'Mcp-Session-Id on /mcp'],
    ]);
    const streamed: Change = {
      answer: async (answer, request) => {
        if (request.method !== 'POST' || !/^application\/json/.test(answer.headers.get('content-type') ?? '')) return answer;
        return new Response(`event: message\ndata: ${await answer.text()}\n\n`, {
          status: 200,
          headers: fields(answer.headers, { 'content-type': 'text/event-stream', 'content-length': undefined }),
        });
      },
    };
    expect(failures((await mcpChecks(await contextOf(streamed))).checks)).toEqual([
      ['mcp.modern', 'text/event-stream answer'],
      ['mcp.legacy', 'text/event-stream answer'],
    ]);
  });

  it('fails both eras, with the hint to let POST /mcp through, when the endpoint is out of reach; checks nothing else', async () => {
    const blocked: Change = {
      answer: (answer, request) =>
        request.method === 'POST' ? new Response('<h1>Forbidden</h1>', { status: 403, headers: { 'content-type': 'text/html' } }) : answer,
    };
    const { checks, serverVersions } = await mcpChecks(await contextOf(blocked));
    expect(checks.map((check) => [check.id, check.ok])).toEqual([
      ['mcp.modern', false],
      ['mcp.legacy', false],
    ]);
    expect(checks[0]!.hint).toMatch(/^the official client could not talk to \/mcp: check that POST \/mcp reaches the service/);
    expect(serverVersions).toEqual([]);
  });

  it('fails the tools when the eras list other tools than the index, or one is not annotated read-only (then not called)', async () => {
    const context = await contextOf();
    const listed = [...TOOL_NAMES, 'delete_gallery'];
    const names = [...TOOL_NAMES].sort().join(', ');
    expect(failures((await mcpChecks({ ...context, index: { ...context.index, tools: listed } })).checks)).toEqual([
      [
        'mcp.tools',
        `modern lists ${names}, the index ${[...listed].sort().join(', ')}; legacy lists ${names}, the index ${[...listed].sort().join(', ')}`,
      ],
    ]);
    const writable = editResult(
      'tools/list',
      (result) => (result.tools.find((tool: any) => tool.name === 'search').annotations.readOnlyHint = false),
    );
    const { checks } = await mcpChecks(await contextOf(writable));
    expect(failures(checks)).toEqual([['mcp.tools', 'search is not annotated read-only (not called)']]);
    // Neither search nor fetch (which takes a search result's id) was called.
    expect(checks.map((check) => check.id)).toEqual(IDS.filter((id) => id !== 'mcp.search' && id !== 'mcp.fetch'));
  });

  it('fails the connector shape of search alone when its result carries a second content item', async () => {
    const twice = editResult(
      'tools/call',
      (result) => result.structuredContent?.results && result.content.push({ type: 'text', text: 'More results on the website.' }),
    );
    expect(failures((await mcpChecks(await contextOf(twice))).checks)).toEqual([
      ['mcp.search', 'search: 2 content items, not one text item'],
    ]);
  });

  it('fails the resources when one reads other bytes than REST serves at its URL', async () => {
    const context = await contextOf();
    const llms = context.gets.get('/llms.txt')!;
    context.gets.set('/llms.txt', changed(llms, {}, `${llms.body}\nAn older line.\n`));
    expect(failures((await mcpChecks(context)).checks)).toEqual([['mcp.resources', `modern: ${BASE}/llms.txt differs from GET /llms.txt`]]);
  });

  it('fails the prompts when one is got without messages', async () => {
    const silent = editResult('prompts/get', (result) => (result.messages = []));
    expect(failures((await mcpChecks(await contextOf(silent))).checks)).toEqual([
      ['mcp.prompts', 'modern: explain_product has no messages; modern: plan_safe_start has no messages; and 1 more'],
    ]);
  });

  it("lets the run's stop go up when the budget runs out during the exchanges", async () => {
    const context = await contextOf({}, { limit: 4 + 6 });
    await expect(mcpChecks(context)).rejects.toSatisfy((error) => error instanceof Stop && error.reason === 'budget');
    expect(context.session.count).toBe(10);
  });
});
