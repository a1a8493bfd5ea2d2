import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listen } from '../../support/node-http.ts';
import { makeHandler } from '../../support/handler.ts';
import { freePort } from '../../support/net.ts';
import { createDynamoDbStore } from '../../../src/ratelimit/stores/dynamodb.ts';
import { StoreError } from '../../../src/ratelimit/store.ts';
import { StartupError } from '../../../src/util/startup-error.ts';

const AWS_VARIABLES = [
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_ENDPOINT_URL_DYNAMODB',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_PROFILE',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
];
let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(AWS_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of AWS_VARIABLES) delete process.env[name];
  // A developer's own ~/.aws files must not lend a region or credentials.
  process.env.AWS_CONFIG_FILE = process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/aws';
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('the DynamoDB store', () => {
  it('refuses to start without an AWS region, naming AWS_REGION', async () => {
    const refused = createDynamoDbStore('counters');
    await expect(refused).rejects.toBeInstanceOf(StartupError);
    await expect(refused).rejects.toThrow('RATE_LIMIT_DYNAMODB_TABLE is set but no AWS region is: set AWS_REGION');
    // createHandler's option is named as the app wrote it.
    await expect(makeHandler({ rateLimit: { dynamoDbTable: 'counters' } })).rejects.toThrow(
      /^Invalid configuration:\n {2}rateLimit\.dynamoDbTable is set but no AWS region is/,
    );
  });

  it('starts with a table that cannot be reached (an outage, not a misconfiguration), and rejects with the reason in a word', async () => {
    Object.assign(process.env, {
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${await freePort()}`,
    });
    const store = await createDynamoDbStore('counters');
    expect(store.kind).toBe('dynamodb');
    const first = store.increment('default:192.0.2.1', 0, 60_000);
    await expect(first).rejects.toBeInstanceOf(StoreError);
    await expect(first).rejects.toThrow('the DynamoDB call failed (ECONNREFUSED)');
    await store.close();
  });

  it('gives up on a DynamoDB that does not answer after the command timeout', async () => {
    const silent = await listen(() => {});
    try {
      Object.assign(process.env, {
        AWS_REGION: 'eu-west-1',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${silent.port}`,
      });
      // The start-up read meets the same silence: an outage, which does not stop start-up.
      const store = await createDynamoDbStore('counters', { commandTimeoutMs: 100 });
      const started = performance.now();
      await expect(store.increment('default:192.0.2.1', 0, 60_000)).rejects.toThrow('DynamoDB did not answer within 100 ms');
      expect(performance.now() - started).toBeLessThan(1000);
      await store.close();
    } finally {
      await silent.close();
    }
  });
});
