/**
 * @module Counters in a DynamoDB table shared by every instance (AWS Lambda starts many): one atomic
 * `UpdateItem` per request, `ADD` on the item of the client's window. DynamoDB applies each update
 * to an item in isolation, so concurrent requests get distinct counts and the quota is exact. Each
 * window is an item of its own (`pk` = `ratelimit:<window start>:<key>`) carrying the TTL attribute
 * `expires` (epoch seconds); DynamoDB deletes expired items lazily (within days), which is why the
 * window is in the key instead of being checked against the item.
 *
 * Nothing is connected ahead: every call is an HTTPS request, so the first request counts in the
 * table like any other. A failed or unanswered call rejects; the limiter then applies the failure
 * policy, and for a second the table is not asked again, so an outage costs no request a wait.
 */
import type { DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { StartupError } from '../../util/startup-error.ts';
import { StoreError, type CounterStore, type StoreOptions } from '../store.ts';

/** The one package this store needs, an optional peer dependency: the official AWS SDK v3 client. */
export const DYNAMODB_PACKAGE = '@aws-sdk/client-dynamodb';

/** A table name as DynamoDB accepts it: 3 to 255 of letters, digits, `_`, `-` and `.`. */
export const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

export async function createDynamoDbStore(
  table: string,
  { commandTimeoutMs = 1000, retryAfterMs = 1000, keyPrefix = 'ratelimit' }: StoreOptions = {},
): Promise<CounterStore> {
  const sdk = await loadSdk();
  // Region, credentials and endpoint (AWS_ENDPOINT_URL_DYNAMODB) come from the SDK's own variables.
  // No retries: a request waits at most commandTimeoutMs, and the next request is the retry.
  const client: Client = new sdk.DynamoDBClient({ maxAttempts: 1 });
  try {
    await client.config.region();
  } catch {
    throw new StartupError(
      'Invalid configuration:\n  RATE_LIMIT_DYNAMODB_TABLE is set but no AWS region is: set AWS_REGION ' +
        '(AWS Lambda sets it for you) to the region of the table.',
    );
  }

  let downUntil = 0;
  let lastError: StoreError | undefined;
  async function call<T>(send: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    if (Date.now() < downUntil) throw lastError!;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), commandTimeoutMs);
    try {
      return await send(abort.signal);
    } catch (cause) {
      lastError = abort.signal.aborted
        ? new StoreError(`DynamoDB did not answer within ${commandTimeoutMs} ms`)
        : new StoreError(`the DynamoDB call failed (${reasonOf(cause)})`);
      downUntil = Date.now() + retryAfterMs;
      throw lastError;
    } finally {
      clearTimeout(timer);
    }
  }

  const pk = (key: string, windowStart: number) => ({ S: `${keyPrefix}:${windowStart}:${key}` });

  return {
    kind: 'dynamodb',
    increment: (key, windowStart, windowMs) =>
      call(async (abortSignal) => {
        const { Attributes } = await client.send(
          new sdk.UpdateItemCommand({
            TableName: table,
            Key: { pk: pk(key, windowStart) },
            UpdateExpression: 'ADD #count :one SET #expires = if_not_exists(#expires, :expires)',
            ExpressionAttributeNames: { '#count': 'count', '#expires': 'expires' },
            // Kept a little past the window's end, so late requests of the window still find it.
            ExpressionAttributeValues: { ':one': { N: '1' }, ':expires': { N: String(Math.ceil((windowStart + windowMs) / 1000) + 1) } },
            ReturnValues: 'UPDATED_NEW',
          }),
          { abortSignal },
        );
        return Number(Attributes?.count?.N);
      }),
    current: (key, windowStart) =>
      call(async (abortSignal) => {
        const { Item } = await client.send(
          new sdk.GetItemCommand({
            TableName: table,
            Key: { pk: pk(key, windowStart) },
            ConsistentRead: true,
            ProjectionExpression: '#count',
            ExpressionAttributeNames: { '#count': 'count' },
          }),
          { abortSignal },
        );
        return Number(Item?.count?.N ?? 0);
      }),
    async close() {
      client.destroy();
    },
  };
}

async function loadSdk(): Promise<typeof import('@aws-sdk/client-dynamodb')> {
  try {
    return await import('@aws-sdk/client-dynamodb');
  } catch {
    throw new StartupError(
      `Invalid configuration:\n  RATE_LIMIT_DYNAMODB_TABLE is set but the package ${DYNAMODB_PACKAGE} is not installed: ` +
        `run \`npm install ${DYNAMODB_PACKAGE}\` (AWS Lambda's Node.js runtime provides it), or unset RATE_LIMIT_DYNAMODB_TABLE.`,
    );
  }
}

/** What went wrong, in a word: the AWS error's name (ResourceNotFoundException...) or the socket's code (ECONNREFUSED...). */
function reasonOf(cause: unknown): string {
  const { name, code, cause: inner } = (cause ?? {}) as { name?: string; code?: string; cause?: { code?: string } };
  return code ?? inner?.code ?? (name && name !== 'Error' ? name : 'unknown error');
}
