/**
 * @module The MCP endpoint over HTTP, one flow: the HTTP rules (gate.ts), the body read and parsed,
 * the answer replayed when the same request was answered before (replay.ts), else the SDK's
 * (server.ts, loaded by the first request that reaches it, so a start that never serves MCP never
 * pays for it); a batch message by message, where its revision has batches (batch.ts). Every
 * answer leaves with the service's headers, added here.
 */
import { toResponse, type Answered } from '../http/answer.ts';
import { mergeHeaders, type HeaderRecord, type PathHeaders } from '../http/headers.ts';
import type { Product } from '../facts/schema.ts';
import { once } from '../util/once.ts';
import { serveBatch } from './batch.ts';
import { forSdk, vet, type McpOptions, type Refused } from './gate.ts';
import { ReplayCache } from './replay.ts';
import type { McpResource } from './resources.ts';
import type { McpEndpoint, ServerInfo } from './server.ts';

/**
 * The hook the endpoint calls around each message it answers: telemetry/ implements it (a span and
 * metrics per message, the declared client for the access log); `answer` gives the message's answer.
 */
export interface McpMessageHook {
  mcpMessage(message: unknown, protocolVersion: string | undefined, answer: () => Promise<Answered>): Promise<Answered>;
}

/** Serves one MCP POST: the answer with the service's headers, or the problem that refuses it. */
export type McpHttpEndpoint = (
  request: Request,
  headers: PathHeaders,
  limits: HeaderRecord,
  observed: McpMessageHook,
) => Promise<Answered | Refused>;

export function createMcpHttpEndpoint(
  facts: Product,
  info: ServerInfo,
  /** The resources, or how to build them (when the SDK is first loaded). */
  resources: readonly McpResource[] | (() => Promise<readonly McpResource[]>),
  { allowedOrigins, maxBodyBytes }: McpOptions,
  /** `{base}`: the documents of the search and fetch tools link to it. */
  base: string,
  /** The SDK's endpoint; by default server.ts's, loaded on first use. */
  load: () => Promise<McpEndpoint> = async () =>
    (await import('./server.ts')).createMcpEndpoint(facts, info, typeof resources === 'function' ? await resources() : resources, base),
): McpHttpEndpoint {
  const replay = new ReplayCache();
  // A failed load is not kept: the next request tries again.
  const loadSdk = once(load);

  /** One message: the kept answer when the same request was answered before, else the SDK's. */
  function answer(
    request: Request,
    text: string,
    body: unknown,
    serviceHeaders: (status: number) => HeaderRecord,
    observed: McpMessageHook,
  ): Promise<Answered> {
    return observed.mcpMessage(body, request.headers.get('mcp-protocol-version') ?? undefined, () =>
      answerOne(request, text, body, serviceHeaders),
    );
  }

  async function answerOne(
    request: Request,
    text: string,
    body: unknown,
    serviceHeaders: (status: number) => HeaderRecord,
  ): Promise<Answered> {
    const key = replay.keyOf(request, body);
    const replayed = key === undefined ? undefined : replay.replay(key, body, serviceHeaders);
    if (replayed) return replayed;
    let response = await (await loadSdk())(forSdk(request, text, body), body);
    if (key !== undefined) response = await replay.record(key, body, response);
    const added = serviceHeaders(response.status);
    for (const name in added) response.headers.set(name, added[name]!);
    return response;
  }

  return async (request, headers, limits, observed) => {
    // A refusal is answered as a problem, which reads what is left of the body first (see http.ts).
    const vetted = await vet(request, { allowedOrigins, maxBodyBytes });
    if ('refused' in vetted) return vetted;
    const { body, text } = vetted;
    // Every answer's headers, and no-store on an error (status 400 or more), added to the SDK's own.
    const serviceHeaders = (status: number) => mergeHeaders(status >= 400 ? headers.mcpError : headers.mcp, limits);
    if (!Array.isArray(body)) return answer(request, text, body, serviceHeaders, observed);
    // A batch: each message answered on its own where its revision has batches (batch.ts).
    const forwarded = forSdk(request, text, body);
    const response = await serveBatch(forwarded, body, (message) =>
      answer(forwarded, text, message, () => ({}), observed).then(toResponse),
    );
    const added = serviceHeaders(response.status);
    for (const name in added) response.headers.set(name, added[name]!);
    return response;
  };
}
