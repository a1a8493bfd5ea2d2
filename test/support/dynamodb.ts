/** dynalite, a local DynamoDB, for the tests of the DynamoDB store: started, frozen, killed and started again on one port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { ROOT } from './entries.ts';

/** The variables a service needs to reach dynalite on `port` with the official SDK (any credentials do). */
export const dynamoEnv = (port: number) => ({
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${port}`,
});

/** dynalite on `port`, keeping its tables in `path` across restarts. */
export async function startDynalite(port: number, path: string): Promise<ChildProcess> {
  const child = spawn(join(ROOT, 'node_modules/.bin/dynalite'), ['--host', '127.0.0.1', '--port', String(port), '--path', path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk) && /listening/.test(output) && resolve());
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`dynalite exited ${code}: ${output}`)));
  });
  return child;
}

export async function stopDynalite(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * The table deploy/lambda/template.yaml declares: partition key pk (a string), TTL attribute expires.
 * Returns once the table is ACTIVE, as a deploy tool does before it starts what names the table: a new
 * table is CREATING for a while (dynalite 500 ms), and DynamoDB answers reads of it with
 * ResourceNotFoundException until then, which the store's start-up read refuses.
 */
export async function createTable(port: number, table: string): Promise<void> {
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    await waitUntilTableExists({ client, minDelay: 0.05, maxDelay: 0.5, maxWaitTime: 30 }, { TableName: table });
    await client
      .send(new UpdateTimeToLiveCommand({ TableName: table, TimeToLiveSpecification: { AttributeName: 'expires', Enabled: true } }))
      .catch(() => {});
  } finally {
    client.destroy();
  }
}
