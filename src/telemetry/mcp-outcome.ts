/**
 * @module What an MCP message's answer says of its outcome, for its span and metric (the MCP semantic
 * conventions): a JSON-RPC error's code (`rpc.response.status_code`, and `error.type`), or a tool result
 * with `isError: true` (`error.type` = `tool_error`), which is a successful JSON-RPC response that
 * HTTP status and RPC error rates never count. Read from a copy of the answer, only while OpenTelemetry is on.
 */

export interface McpOutcome {
  /** The JSON-RPC error's code, when the answer is an error. */
  errorCode?: number;
  /** The answer is a tool result with `isError: true`. */
  toolError?: boolean;
}

export async function outcomeOf(response: Response): Promise<McpOutcome> {
  if (!/^application\/json\b/i.test(response.headers.get('content-type') ?? '')) return {};
  let answer: unknown;
  try {
    answer = JSON.parse(await response.clone().text());
  } catch {
    return {};
  }
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return {};
  const { error, result } = answer as { error?: { code?: unknown }; result?: { isError?: unknown } };
  if (typeof error?.code === 'number') return { errorCode: error.code };
  return result?.isError === true ? { toolError: true } : {};
}

/** The trace context an MCP request carries in `params._meta` (`traceparent`, `tracestate`), as a carrier to extract from. */
export function metaCarrier(message: unknown): Record<string, string> | undefined {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  if (!meta || typeof meta.traceparent !== 'string') return undefined;
  return typeof meta.tracestate === 'string'
    ? { traceparent: meta.traceparent, tracestate: meta.tracestate }
    : { traceparent: meta.traceparent };
}
