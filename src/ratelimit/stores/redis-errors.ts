/** @module Store failures as health reports them: the kind of failure, never the Redis host, port or password. */
import { ErrorReply, TimeoutError } from '@redis/client';
import { StoreError } from '../store.ts';

/** Keeps the kind of failure and drops anything that could name the server (addresses, URLs). */
export function storeError(error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  if (error instanceof ErrorReply) {
    // An error reply starts with its code (OOM, READONLY, CLUSTERDOWN, LOADING, NOPERM...).
    const code = /^[A-Z][A-Z_-]*/.exec(error.message)?.[0] ?? 'ERR';
    return new StoreError(`Redis refused the command (${code})`);
  }
  // The client's TimeoutError (commandOptions.timeout) keeps the name "Error": known by its class.
  if (error instanceof TimeoutError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new StoreError('Redis did not answer in time');
  }
  if (error instanceof Error && error.message === 'The queue is full') {
    return new StoreError('too many Redis commands waiting for an answer');
  }
  return new StoreError('Redis connection failed');
}
