/**
 * @module The access log: one `request` line per request (time, request id, method, path, status,
 * duration in ms, client key, agent class and known name, and the origin of an agent whose Web Bot
 * Auth signature verified), written once the answer is ready.
 */
import type { Answered } from '../http/answer.ts';
import { pathOf } from '../http/prepared.ts';
import type { Logger } from '../util/log.ts';
import type { Observation } from './index.ts';
import type { Connection } from '../ratelimit/client.ts';
import { andThen, type Maybe } from '../util/maybe.ts';

/** What the way in knows of a request beyond it: the connection's address (`Connection`), and these. */
export interface RequestInfo extends Connection {
  /** Names the request in its log lines and in a 500 problem's `instance`; a fresh UUID when absent. */
  requestId?: string;
  /**
   * Set by an entry that could not turn what it received into a Request (a malformed Lambda event):
   * the request passed stands in for it (its path when readable, GET, no body) and is answered with
   * this problem, counted and with every header as any other answer.
   */
  malformed?: { code: 'bad_request' | 'method_not_allowed'; detail: string };
}

type Serve = (request: Request, info: RequestInfo, observed: Observation) => Maybe<Answered>;

export function withAccessLog(
  serve: Serve,
  log: Logger,
  clientOf: (request: Request, connection: Connection, agent?: string) => string,
): Serve {
  return (request, info, observed) => {
    const time = new Date().toISOString();
    const started = performance.now();
    const requestId = info.requestId ?? crypto.randomUUID();
    // Spreading reads the connection's address once: the answer and the line share that value.
    const named = { ...info, requestId };
    return andThen(serve(request, named, observed), (response) => {
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      const { agentClass, agentName, verified } = observed.agent;
      const client = clientOf(request, named, verified);
      log({
        level: 'info',
        event: 'request',
        time,
        requestId,
        method: request.method,
        path: pathOf(request.url),
        status: response.status,
        durationMs,
        client,
        agentClass,
        agentName,
        ...(verified && { agentVerified: verified }),
      });
      return response;
    });
  };
}
