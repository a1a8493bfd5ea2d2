/**
 * @module Counters in a DynamoDB table shared by every instance (AWS Lambda starts many): one atomic
 * `UpdateItem` per write, `ADD` on the item of the client's window. DynamoDB applies each update to
 * an item in isolation, so concurrent writes get distinct counts and the quota is exact. A client's
 * concurrent requests in one instance go out as one write that adds them all (coalesce.ts): one item
 * takes only so many updates a second (dynalite about 200), and a burst sent one update per request
 * would wait out its own deadline with the table up. Each
 * window is an item of its own (`pk` = `ratelimit:<window start>:<key>`) carrying the TTL attribute
 * `expires` (epoch seconds); DynamoDB deletes expired items lazily (within days), which is why the
 * window is in the key instead of being checked against the item.
 *
 * Nothing is connected ahead: every call is an HTTPS request, so the first request counts in the
 * table like any other. One read at start-up (`GetItem`, within the documented permissions) refuses
 * a table that does not exist, or that the function may not use, before anything is served; a table
 * unreachable at start-up does not stop it. A failed or unanswered call rejects; the limiter then
 * applies the failure policy and skips the table until a probe finds it back (outage.ts).
 */
import type { DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { invalidConfiguration, settingLine } from '../../util/startup-error.ts';
import { coalesced } from './coalesce.ts';
import { StoreError, type CounterStore, type StoreOptions } from '../store.ts';

/** The one package this store needs, an optional peer dependency: the official AWS SDK v3 client. */
const DYNAMODB_PACKAGE = '@aws-sdk/client-dynamodb';

export async function createDynamoDbStore(
  table: string,
  { commandTimeoutMs = 1000, keyPrefix = 'ratelimit', setting = 'RATE_LIMIT_DYNAMODB_TABLE' }: StoreOptions = {},
): Promise<CounterStore> {
  const sdk = await loadSdk(setting);
  // Region, credentials and endpoint (AWS_ENDPOINT_URL_DYNAMODB) come from the SDK's own variables.
  // No retries: a request waits at most commandTimeoutMs, and the next request is the retry.
  const client: Client = new sdk.DynamoDBClient({ maxAttempts: 1 });
  try {
    await client.config.region();
  } catch {
    throw invalidConfiguration(
      `${setting} is set but no AWS region is: set AWS_REGION (AWS Lambda sets it for you) to the region of the table.`,
    );
  }

  /** One call, given up after commandTimeoutMs (the table's own deadline: nothing of ours queues before it). */
  async function call<T>(send: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), commandTimeoutMs);
    try {
      return await send(abort.signal);
    } catch (cause) {
      throw abort.signal.aborted
        ? new StoreError(`DynamoDB did not answer within ${commandTimeoutMs} ms`)
        : new StoreError(`the DynamoDB call failed (${reasonOf(cause)})`);
    } finally {
      clearTimeout(timer);
    }
  }

  const pk = (key: string, windowStart: number) => ({ S: `${keyPrefix}:${windowStart}:${key}` });
  const read = (key: string, windowStart: number) =>
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
    });

  await checkTable(setting, table, client.config.region, () => read('startup', 0));

  const increment = coalesced((key, windowStart, windowMs, n) =>
    call(async (abortSignal) => {
      const { Attributes } = await client.send(
        new sdk.UpdateItemCommand({
          TableName: table,
          Key: { pk: pk(key, windowStart) },
          UpdateExpression: 'ADD #count :n SET #expires = if_not_exists(#expires, :expires)',
          ExpressionAttributeNames: { '#count': 'count', '#expires': 'expires' },
          // Kept a little past the window's end, so late requests of the window still find it.
          ExpressionAttributeValues: { ':n': { N: String(n) }, ':expires': { N: String(Math.ceil((windowStart + windowMs) / 1000) + 1) } },
          ReturnValues: 'UPDATED_NEW',
        }),
        { abortSignal },
      );
      return Number(Attributes?.count?.N);
    }),
  );

  return {
    kind: 'dynamodb',
    increment,
    current: read,
    async close() {
      client.destroy();
    },
  };
}

/**
 * The start-up read: a table that does not exist, or that the function may not read, is a
 * configuration error named at once; a table that does not answer is an outage like any other.
 * DynamoDB answers ResourceNotFoundException for a table still CREATING too: refused as well, at once
 * rather than waited for, since deploy tools (SAM, CloudFormation, Terraform) start what names a table
 * only once it is ACTIVE, and a name mistyped must not look like a table on its way.
 */
async function checkTable(setting: string, table: string, region: () => Promise<string>, read: () => Promise<number>): Promise<void> {
  try {
    await read();
  } catch (error) {
    const message = (error as Error).message;
    const refusal = /\((ResourceNotFoundException|AccessDeniedException|UnrecognizedClientException)\)/.exec(message)?.[1];
    if (!refusal) return;
    const what =
      refusal === 'ResourceNotFoundException'
        ? `no such table in ${await region()}: create it (deploy/lambda/template.yaml declares it) or name an existing one ` +
          '(a table still being created is not found until it is ACTIVE)'
        : 'the function may not read it: grant dynamodb:GetItem and dynamodb:UpdateItem on the table (docs/deploy/lambda.md)';
    throw invalidConfiguration(settingLine(setting, table, `${what} (${refusal}).`));
  }
}

async function loadSdk(setting: string): Promise<typeof import('@aws-sdk/client-dynamodb')> {
  try {
    return await import('@aws-sdk/client-dynamodb');
  } catch {
    throw invalidConfiguration(
      `${setting} is set but the package ${DYNAMODB_PACKAGE} is not installed: ` +
        `run \`npm install ${DYNAMODB_PACKAGE}\` (AWS Lambda's Node.js runtime provides it), or unset ${setting}.`,
    );
  }
}

/** What went wrong, in a word: the AWS error's name (ResourceNotFoundException...) or the socket's code (ECONNREFUSED...). */
function reasonOf(cause: unknown): string {
  const { name, code, cause: inner } = (cause ?? {}) as { name?: string; code?: string; cause?: { code?: string } };
  return code ?? inner?.code ?? (name && name !== 'Error' ? name : 'unknown error');
}
