/**
 * @module The one rule for reading a request body, on every way in: by the bytes that arrive, never
 * by the declared Content-Length (which a platform in front may not enforce), at most `limit` of them,
 * and within a deadline. A body over the limit is refused whatever its Content-Length says; a body cut
 * off by the client, or still arriving at the deadline, is a bad request, not a failure of the service.
 */
import { discard } from './prepared.ts';
import { boundedBytes } from '../util/bounded.ts';

/** How long a body may take to arrive: Node's own server gives a whole request 10 s (src/startup/node-runtime.ts). */
export const BODY_DEADLINE_MS = 10_000;

export type BodyRead =
  | { bytes: Uint8Array<ArrayBuffer> }
  | { refused: 'payload_too_large' }
  /**
   * The body was cut off by the client or did not arrive in time; `detail` says which. Its rest is
   * unread, so the connection cannot carry another request: the answer closes it (`close`, RFC 9112
   * section 9.6), or a server would keep waiting for the rest (Bun for another idle timeout).
   */
  | { refused: 'bad_request'; detail: string; close: true };

export const BODY_CUT_OFF = 'The request body ended before it was complete (the client closed the connection).';
export const bodyTooSlow = (deadlineMs: number) => `The request body did not arrive within ${deadlineMs / 1000} s.`;
const unfinished = (detail: string): BodyRead => ({ refused: 'bad_request', detail, close: true });

/** Reads the body of `request`: at most `limit` bytes, within `deadlineMs`. */
export async function readBody(request: Request, limit: number, deadlineMs = BODY_DEADLINE_MS): Promise<BodyRead> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d{1,15}$/.test(declared) && Number(declared) <= limit) return readWhole(request, limit, deadlineMs);
  return readStream(request, limit, deadlineMs);
}

/**
 * A body declared within the limit, read whole: on Node's adapter this skips building a stream (about
 * twice the MCP throughput). A server keeps a body to its declared length; a caller that lies (a
 * Request built in-process) is still refused by the bytes that came.
 */
async function readWhole(request: Request, limit: number, deadlineMs: number): Promise<BodyRead> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadlineMs)));
  try {
    const read = await Promise.race([request.arrayBuffer(), late]);
    if (read === 'late') return unfinished(bodyTooSlow(deadlineMs));
    return read.byteLength > limit ? { refused: 'payload_too_large' } : { bytes: new Uint8Array(read) };
  } catch {
    return unfinished(BODY_CUT_OFF);
  } finally {
    clearTimeout(timer);
  }
}

/** A body of unknown or unbelievable length, read chunk by chunk and refused once past the limit. */
async function readStream(request: Request, limit: number, deadlineMs: number): Promise<BodyRead> {
  const body = request.body;
  if (!body) return { bytes: new Uint8Array(0) };
  const reader = body.getReader();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    reader.cancel().catch(() => {});
  }, deadlineMs);
  try {
    const bytes = await boundedBytes(reader, limit, async (held, size) => {
      clearTimeout(timer);
      held.releaseLock();
      // Read and dropped (up to a bound) so the client reads the 413 rather than a reset.
      await discard(body, size);
    });
    if (late) return unfinished(bodyTooSlow(deadlineMs));
    return bytes ? { bytes } : { refused: 'payload_too_large' };
  } catch {
    return unfinished(late ? bodyTooSlow(deadlineMs) : BODY_CUT_OFF);
  } finally {
    clearTimeout(timer);
  }
}
