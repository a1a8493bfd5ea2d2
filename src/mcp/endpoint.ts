/**
 * @module The MCP endpoint as served: the HTTP gate, the replay of the SDK's answers, and the SDK.
 * The SDK is loaded on the first MCP request, so a start that never serves MCP never pays for it.
 */
import type { HeaderRecord } from '../headers.ts';
import type { Product } from '../schemas.ts';
import type { McpGateOptions, McpOutcome } from './gate.ts';
import type { McpResource } from './resources.ts';

export function lazyMcpEndpoint(facts: Product, info: { name: string; version: string }, resources: McpResource[], options: McpGateOptions, base: string) {
  let serve: Promise<(request: Request, answerHeaders: HeaderRecord) => Promise<McpOutcome>> | undefined;
  const load = async () => {
    const [{ createMcpGate }, { withReplay }, { createMcpEndpoint }] = await Promise.all([
      import('./gate.ts'),
      import('./replay.ts'),
      import('./server.ts'),
    ]);
    return createMcpGate(withReplay(createMcpEndpoint(facts, info, resources, base)), options);
  };
  return async (request: Request, answerHeaders: HeaderRecord): Promise<McpOutcome> => {
    // A failed load is not kept: the next request tries again.
    serve ??= load().catch((error: unknown) => {
      serve = undefined;
      throw error;
    });
    return (await serve)(request, answerHeaders);
  };
}
