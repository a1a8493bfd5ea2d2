/**
 * @module The MCP endpoint: the read-only tools served statelessly to both protocol eras with JSON
 * bodies. The protocol stays in the official SDK's hands: 2026-07-28 traffic goes to
 * `createMcpHandler`, 2025-era traffic (as its `isLegacyRequest` decides) to a fresh stateless
 * `WebStandardStreamableHTTPServerTransport` with JSON responses, one factory serving both.
 * The modern leg stays in its default `auto` mode: it answers JSON because no tool emits
 * anything before its result.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { Product } from '../schemas.ts';
import type { McpResource } from './resources.ts';
import { TOOLS } from './tools.ts';

import { MCP_PROTOCOL_VERSIONS } from './versions.ts';

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * `toStandardJsonSchema` converts to JSON Schema each time it is asked, and the SDK asks on every
 * request (a fresh server per request): convert once per target and hand out the same result.
 */
function convertedOnce(schema: v.GenericSchema): StandardSchemaWithJSON {
  const standard = toStandardJsonSchema(schema);
  const { input, output } = standard['~standard'].jsonSchema;
  const memo = (convert: typeof input): typeof input => {
    const byTarget = new Map<string, Record<string, unknown>>();
    return (options) => {
      if (options.libraryOptions) return convert(options);
      let converted = byTarget.get(options.target);
      if (!converted) byTarget.set(options.target, (converted = convert(options)));
      return converted;
    };
  };
  return { '~standard': { ...standard['~standard'], jsonSchema: { input: memo(input), output: memo(output) } } } as StandardSchemaWithJSON;
}

const CONVERTED = new Map(TOOLS.flatMap((tool) => [tool.input, tool.output]).map((schema) => [schema, convertedOnce(schema)]));

function result(structuredContent: Record<string, unknown>) {
  return { structuredContent, content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }] };
}

function buildServer(facts: Product, info: { name: string; version: string }, resources: readonly McpResource[]): McpServer {
  const server = new McpServer(info, {
    // Both legs list every revision /mcp serves, so a version error names them all.
    supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
    instructions: `Read-only, reviewed public facts about ${facts.product.name}. No tool creates or changes anything.`,
    // No subscriptions and no list-change notices: the resources change only when the facts are reloaded.
    capabilities: { resources: { listChanged: false } },
  });
  registerResources(server, resources);
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description(facts),
        inputSchema: CONVERTED.get(tool.input)!,
        outputSchema: CONVERTED.get(tool.output)!,
        annotations: READ_ONLY,
      },
      (args) => result(tool.answer(facts, args as Record<string, unknown>)),
    );
  }
  return server;
}

/** Serves one already-vetted MCP POST whose body has been read and parsed. */
export type McpEndpoint = (request: Request, parsedBody: unknown) => Promise<Response>;

export function createMcpEndpoint(facts: Product, info: { name: string; version: string }, resources: readonly McpResource[] = []): McpEndpoint {
  const factory = () => buildServer(facts, info, resources);
  const modern = createMcpHandler(factory, { legacy: 'reject' });
  return async (request, parsedBody) => {
    if (!(await isLegacyRequest(request, parsedBody))) return listingEveryRevision(await modern.fetch(request, { parsedBody }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await factory().connect(transport);
    // No close(): once the JSON answer exists this per-request pair holds no timer, handler or
    // stream, and close() would only build a "Connection closed" error (about a quarter of the
    // exchange's cost on Bun). Both are garbage once the answer is sent: 60,000 exchanges kept the
    // heap flat in a trial.
    return transport.handleRequest(request, { parsedBody });
  };
}

/**
 * The modern leg's unsupported-version error (-32022) lists only the revisions of its own era;
 * /mcp serves the 2025 ones too, and a client picks its fallback from that list.
 */
async function listingEveryRevision(response: Response): Promise<Response> {
  if (response.status !== 400) return response;
  const body = await response.clone().json().catch(() => undefined);
  if (body?.error?.code !== ProtocolErrorCode.UnsupportedProtocolVersion || !Array.isArray(body.error.data?.supported)) return response;
  body.error.data.supported = MCP_PROTOCOL_VERSIONS;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

export function registerResources(server: McpServer, resources: readonly McpResource[]): void {
  for (const { name, uri, text, ...metadata } of resources) {
    // The SDK looks a read up by the URI's normalised form.
    server.registerResource(name, new URL(uri).href, metadata, () => ({ contents: [{ uri, mimeType: metadata.mimeType, text }] }));
  }
}
