/**
 * The README's curl examples run as pasted, against a real server (its address in place of
 * localhost:8787): the 304 takes the ETag of the first answer, resources/read the URI resources/list gave.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startEntry, type RunningEntry } from '../support/entries.ts';

const execFile = promisify(execFileCallback);
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const shellBlocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
const blockWith = (text: string) => {
  const found = shellBlocks.filter((block) => block.includes(text));
  expect(found, `one README sh block with ${text}`).toHaveLength(1);
  return found[0]!;
};

describe('the README examples', () => {
  let server: RunningEntry;
  beforeAll(async () => {
    server = await startEntry('node');
  });
  afterAll(async () => {
    await server?.stop();
  });

  const run = async (block: string) => {
    const script = block.replaceAll('localhost:8787', new URL(server.url).host);
    const { stdout } = await execFile('bash', ['-euo', 'pipefail', '-c', script]);
    return stdout;
  };

  it('answers 304 to the ETag of the first answer', async () => {
    const output = await run(blockWith('If-None-Match: $etag'));
    expect(output).toMatch(/HTTP\/1\.1 304 Not Modified\r$/m);
    expect(output).toContain('"structuredContent":{"startOptions":[');
  });

  it('reads the MCP resource at the URI resources/list gave', async () => {
    const output = await run(blockWith('resources/read'));
    expect(JSON.parse(output).result.contents[0]).toMatchObject({ uri: `${server.url}/llms.txt`, mimeType: 'text/markdown', text: expect.stringMatching(/^# Lumen Galleries/) });
  });
});
