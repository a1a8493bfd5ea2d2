/**
 * @module The MCP endpoint through the official client, as agents reach it in both eras:
 * `@modelcontextprotocol/client` on revision 2026-07-28 (`server/discover`) and on the 2025 ones
 * (`initialize`). Tools, resources and prompts are listed on both; the read-only tools are called,
 * the resources read and the prompts got, within the budget.
 */
import pkg from '../../package.json' with { type: 'json' };
import { MODERN_REVISION } from '../mcp/versions.ts';
import { MCP_PATH } from '../route.ts';
import { argumentsFor, connectorProblem, resultProblem, schemaChecker, type Tool, type ToolResult } from './mcp-results.ts';
import { checkAll, fail, type Check } from './report.ts';
import type { Answer, Session } from './session.ts';

/** What verify needs of either client. */
interface Connected {
  era: 'modern' | 'legacy';
  protocolVersion: string | undefined;
  serverVersion: string | undefined;
  prompts: boolean;
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  listResources(): Promise<{ uri: string; mimeType?: string }[]>;
  readResource(uri: string): Promise<{ contents: { uri: string; text?: string }[] }>;
  listPrompts(): Promise<{ name: string; arguments?: { required?: boolean }[] }[]>;
  getPrompt(name: string): Promise<{ messages: { role: string; content: unknown }[] }>;
  close(): Promise<void>;
}

function wrap(era: Connected['era'], client: any, protocolVersion: string | undefined): Connected {
  return {
    era,
    protocolVersion,
    serverVersion: client.getServerVersion()?.version,
    prompts: Boolean(client.getServerCapabilities()?.prompts),
    listTools: async () => (await client.listTools()).tools,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    listResources: async () => (await client.listResources()).resources,
    readResource: (uri) => client.readResource({ uri }),
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: (name) => client.getPrompt({ name, arguments: {} }),
    close: () => client.close(),
  };
}

/**
 * The official client (`@modelcontextprotocol/client`) in each era: `auto` discovers the 2026-07-28
 * revision (`server/discover`), `legacy` makes the 2025 `initialize` handshake.
 */
async function connect(era: Connected['era'], url: URL, session: Session): Promise<Connected> {
  const info = { name: 'product-discovery-verify', version: pkg.version };
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(info, { versionNegotiation: { mode: era === 'modern' ? 'auto' : 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: session.fetch }));
  return wrap(era, client, client.getNegotiatedProtocolVersion());
}

export interface McpContext {
  session: Session;
  /** `{base}` as the deployment states it: resource URIs are under it. */
  servedBase: string;
  /** The revisions and tool names the API index lists. */
  index: { protocolVersions?: string[]; tools?: string[] } | undefined;
  gets: Map<string, Answer>;
  /** A query the search tool should match (a word of the product's name). */
  query: string;
}

const CONNECT_HINT =
  'the official client could not talk to /mcp: check that POST /mcp reaches the service with its body and headers, unbuffered (no proxy buffering or rewriting of JSON answers)';

export async function mcpChecks(
  context: McpContext,
): Promise<{ checks: Check[]; serverVersions: { where: string; version: string | undefined }[] }> {
  const { session } = context;
  const checks: Check[] = [];
  const clients: Connected[] = [];
  const listed = context.index?.protocolVersions ?? [];
  for (const era of ['modern', 'legacy'] as const) {
    const id = `mcp.${era}`;
    const wanted = era === 'modern' ? [MODERN_REVISION] : listed.filter((version) => version !== MODERN_REVISION);
    const expected = `${era === 'modern' ? 'server/discover' : 'initialize'} negotiates ${wanted.join(' or ') || 'a revision'}; JSON answers, no Mcp-Session-Id`;
    if (era === 'modern' && listed.length > 0 && !listed.includes(MODERN_REVISION)) continue;
    const from = session.answers.length;
    try {
      const client = await connect(era, new URL(`${session.base}${MCP_PATH}`), session);
      clients.push(client);
      const exchanged = session.answers.slice(from).filter((a) => a.method === 'POST');
      const problems = [
        ...(wanted.length === 0 || wanted.includes(client.protocolVersion ?? '') ? [] : [`negotiated ${client.protocolVersion}`]),
        ...exchanged
          .filter((a) => a.headers.has('mcp-session-id'))
          .map((a) => `Mcp-Session-Id on ${a.path}`)
          .slice(0, 1),
        ...exchanged
          .filter((a) => a.status === 200 && !/^application\/json/.test(a.headers.get('content-type') ?? ''))
          .map((a) => `${a.headers.get('content-type')} answer`)
          .slice(0, 1),
      ];
      checks.push(
        checkAll(
          id,
          expected,
          problems,
          `${client.protocolVersion}, serverInfo ${client.serverVersion}`,
          'the endpoint answers, but not as the contract says: a proxy that turns JSON into SSE, or a stateful instance',
        ),
      );
    } catch (error) {
      if (session.stopped) throw session.stopped;
      checks.push(fail(id, expected, (error as Error).message, CONNECT_HINT));
    }
  }
  if (clients.length > 0) {
    checks.push(...(await toolChecks(context, clients)), await resourceCheck(context, clients), ...(await promptChecks(context, clients)));
  }
  for (const client of clients) await client.close().catch(() => {});
  return {
    checks,
    serverVersions: clients.map((client) => ({ where: `serverInfo (${client.protocolVersion})`, version: client.serverVersion })),
  };
}

/** Runs `body`; an error (not the run's stop) becomes the check's failure. */
async function attempt(id: string, expected: string, hint: string, session: Session, body: () => Promise<Check>): Promise<Check> {
  try {
    return await body();
  } catch (error) {
    if (session.stopped) throw session.stopped;
    return fail(id, expected, (error as Error).message, hint);
  }
}

const names = (items: { name: string }[]) =>
  items
    .map((item) => item.name)
    .sort()
    .join(', ');

async function toolChecks({ session, index, query }: McpContext, clients: Connected[]): Promise<Check[]> {
  const expected = `the index's tools on both eras, read-only, each called: structuredContent valid against its outputSchema and equal to its text`;
  const shapes: Check[] = [];
  const main = await attempt('mcp.tools', expected, 'the MCP endpoint does not serve its tools as the contract says', session, async () => {
    const lists = await Promise.all(clients.map((client) => client.listTools()));
    const tools = lists[0]!;
    const problems: string[] = [];
    const want = index?.tools ? [...index.tools].sort().join(', ') : names(tools);
    clients.forEach((client, i) => {
      if (names(lists[i]!) !== want) problems.push(`${client.era} lists ${names(lists[i]!)}, the index ${want}`);
    });
    const check = await schemaChecker();
    const known: { query: string; id?: string } = { query };
    // search first: fetch takes one of its ids.
    for (const tool of [...tools].sort((a, b) => Number(a.name === 'fetch') - Number(b.name === 'fetch'))) {
      if (tool.annotations?.readOnlyHint !== true || tool.annotations?.destructiveHint !== false) {
        problems.push(`${tool.name} is not annotated read-only (not called)`);
        continue;
      }
      const args = argumentsFor(tool, known);
      if (!args) continue;
      // The 2025 era calls one tool, the current one every tool.
      const result = await clients[0]!.callTool(tool.name, args);
      const problem = resultProblem(tool, result, check);
      if (problem) problems.push(problem);
      if (tool.name === 'search' || tool.name === 'fetch') {
        const shape = connectorProblem(tool.name, result);
        shapes.push(
          checkAll(
            `mcp.${tool.name}`,
            tool.name === 'search'
              ? 'one text item, JSON {results: [{id, title, url}]} equal to structuredContent'
              : 'one text item, JSON {id, title, text, url, metadata?} equal to structuredContent',
            shape ? [shape] : [],
            'the connector shape',
            'the tool does not answer in the shape hosts expect',
          ),
        );
        if (tool.name === 'search') known.id = (result.structuredContent as any)?.results?.[0]?.id;
      }
    }
    const legacy = clients[1];
    const first = tools.find((tool) => argumentsFor(tool, known) && tool.annotations?.readOnlyHint);
    if (legacy && first) {
      const problem = resultProblem(first, await legacy.callTool(first.name, argumentsFor(first, known)!), check);
      if (problem) problems.push(`legacy: ${problem}`);
    }
    return checkAll(
      'mcp.tools',
      expected,
      problems,
      `${tools.length} tools: ${names(tools)}`,
      'the MCP endpoint does not serve its tools as the contract says',
    );
  });
  return [main, ...shapes];
}

async function resourceCheck({ session, servedBase, gets }: McpContext, clients: Connected[]): Promise<Check> {
  const expected = 'the same resources on both eras, each read as exactly the bytes REST serves at its URL';
  return attempt('mcp.resources', expected, 'the MCP endpoint does not serve its resources as the contract says', session, async () => {
    const lists = await Promise.all(clients.map((client) => client.listResources()));
    const uris = (list: { uri: string }[]) =>
      list
        .map((resource) => resource.uri)
        .sort()
        .join(', ');
    const problems = lists
      .slice(1)
      .filter((list) => uris(list) !== uris(lists[0]!))
      .map((list) => `the 2025 era lists ${uris(list)}`);
    for (const [i, client] of clients.entries()) {
      // The current era reads every resource (up to three), the 2025 era the first.
      for (const resource of lists[i]!.slice(0, i === 0 ? 3 : 1)) {
        const text = (await client.readResource(resource.uri)).contents[0]?.text;
        const rest = resource.uri.startsWith(servedBase) ? gets.get(resource.uri.slice(servedBase.length)) : undefined;
        if (typeof text !== 'string' || text.length === 0) problems.push(`${resource.uri} read empty`);
        else if (rest?.status === 200 && rest.body !== text) problems.push(`${client.era}: ${resource.uri} differs from GET ${rest.path}`);
      }
    }
    return checkAll(
      'mcp.resources',
      expected,
      problems,
      `${lists[0]!.length} resources`,
      'the MCP resources and the REST documents differ: another release answers one of them',
    );
  });
}

async function promptChecks({ session }: McpContext, clients: Connected[]): Promise<Check[]> {
  if (!clients[0]!.prompts) return [];
  const expected = 'the same prompts on both eras, each got with messages';
  return [
    await attempt('mcp.prompts', expected, 'the MCP endpoint does not serve its prompts as the contract says', session, async () => {
      const lists = await Promise.all(clients.map((client) => (client.prompts ? client.listPrompts() : Promise.resolve([]))));
      const problems = lists
        .slice(1)
        .filter((list) => names(list) !== names(lists[0]!))
        .map((list) => `the 2025 era lists ${names(list)}`);
      for (const [i, client] of clients.entries()) {
        const callable = lists[i]!.filter((prompt) => !(prompt.arguments ?? []).some((argument) => argument.required));
        for (const prompt of callable.slice(0, i === 0 ? 3 : 1)) {
          const { messages } = await client.getPrompt(prompt.name);
          if (!Array.isArray(messages) || messages.length === 0 || messages.some((m) => !m.role || !m.content))
            problems.push(`${client.era}: ${prompt.name} has no messages`);
        }
      }
      return checkAll(
        'mcp.prompts',
        expected,
        problems,
        `${lists[0]!.length} prompts: ${names(lists[0]!)}`,
        'the MCP endpoint does not serve its prompts as the contract says',
      );
    }),
  ];
}
