/**
 * @module The handler as a node:http `(req, res)` listener, for node:http, Express and other Node
 * servers, so a host app needs no fetch adapter of its own (@hono/node-server's, a dependency here,
 * converts between the two). The client address the quota counts by is the connection's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Handler } from './handler.ts';

// Structural stand-ins for node:http's IncomingMessage and ServerResponse (and their HTTP/2 twins,
// Express's req and res too), so that the package's types do not need @types/node.
export interface NodeRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers: object;
}
export interface NodeResponse {
  writeHead(...args: never[]): unknown;
  end(...args: never[]): unknown;
}
export type NodeListener = (req: NodeRequest, res: NodeResponse) => Promise<void>;

export function toNodeListener(handler: Handler): NodeListener {
  const listener = getRequestListener((request, { incoming }) => handler(request, { clientAddress: incoming.socket.remoteAddress }));
  return (req, res) => listener(req as IncomingMessage, res as ServerResponse);
}
