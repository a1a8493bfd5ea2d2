/**
 * @module Structured log lines: what the service tells its operator (requests, the rate-limit store
 * coming and going, facts reloads, failures). An embedding app passes its own `Logger` to route
 * them into its logs; the runtime entries write one JSON object per line.
 */

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  /** What happened, e.g. `request`, `rate_limit_store_lost`, `facts_refused`. */
  event: string;
  [field: string]: unknown;
}

export type Logger = (entry: LogEntry) => void;

/** One JSON object per line, `time` first: errors and warnings on stderr, the rest on stdout. */
export function jsonLinesLogger(
  out: (line: string) => void = (line) => console.log(line),
  err: (line: string) => void = (line) => console.error(line),
): Logger {
  return (entry) => {
    const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
    (entry.level === 'info' ? out : err)(line);
  };
}

/** An error as a log field: its name and message, and the stack for the operator (never for a client). */
export function errorField(error: unknown): { name: string; message: string; stack?: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };
}
