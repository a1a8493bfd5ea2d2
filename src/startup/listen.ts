/**
 * @module Listening: the URL of a listening address, and the runtime's error for a busy port or an
 * unusable address turned into a StartupError that names the variable and the fix.
 */
import { StartupError } from '../util/startup-error.ts';

/** The URL of a listening address (an IPv6 one in brackets). */
export const listeningUrl = ({ hostname, port }: { hostname: string; port: number }): string =>
  `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;

// Node and Bun set `code` (EADDRINUSE...); Deno sets `code` on its typed errors and names the rest.
export function listenFailure(error: unknown, { host, port }: { host: string; port: number }): StartupError {
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  const reason = code ?? name ?? 'error';
  if (code === 'EADDRINUSE' || name === 'AddrInUse') {
    return new StartupError(
      `Cannot listen:\n  PORT=${JSON.stringify(String(port))}: port ${port} is already in use on ${host}; ` +
        'stop the process that holds it or choose another PORT (0 = any free port).',
    );
  }
  if (code === 'EACCES' || name === 'PermissionDenied') {
    return new StartupError(
      `Cannot listen:\n  PORT=${JSON.stringify(String(port))}: not permitted to listen on port ${port} (${reason}); ` +
        'choose a PORT from 1024 up, or grant the process the right to bind it.',
    );
  }
  const detail = firstLine(message).startsWith(reason) ? firstLine(message) : `${reason}: ${firstLine(message)}`;
  return new StartupError(
    `Cannot listen:\n  HOST=${JSON.stringify(host)}: cannot listen on this address (${detail}); ` +
      'use an address of this machine, such as 127.0.0.1, ::1 or 0.0.0.0 for every interface.',
  );
}

const firstLine = (text = '') => text.split('\n')[0]!.trim();
