/**
 * `product-discovery check FILE`, run as a process: every refused field on stderr and exit 1, or
 * exit 0 when start-up would serve the file.
 */
import { execFile as execFileCallback } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/entries.ts';

const execFile = promisify(execFileCallback);
const dir = mkdtempSync(join(tmpdir(), 'cli-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sample = () => JSON.parse(readFileSync(join(ROOT, 'src/sample-facts.json'), 'utf8'));

async function check(name: string, text: string) {
  const path = join(dir, name);
  writeFileSync(path, text);
  const result = await execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'check', path], { cwd: ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => ({ code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string }),
  );
  return { path, ...result };
}

describe('product-discovery check', () => {
  it('exits 0 for a file start-up would serve, $schema and byte order mark included', async () => {
    const text = `\uFEFF${JSON.stringify({ $schema: './node_modules/product-discovery-api/dist/schemas/facts.json', ...sample() }, null, 2)}`;
    const { code, stdout, stderr } = await check('good.json', text);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/would be served: Lumen Galleries, 9 resources, 4 start options/);
  });

  it('prints every refused field and exits 1', async () => {
    const facts = sample();
    facts.product.reviewdOn = '2026-02-31';
    delete facts.product.reviewedOn;
    facts.resources[1].url = 'https://docs.example.com/?access_token=abc';
    facts.startOptions[1].id = facts.startOptions[0].id;
    const { path, code, stdout, stderr } = await check('bad.json', JSON.stringify(facts, null, 2));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      [
        `Facts file ${path} was refused:`,
        '  product.reviewdOn: unknown field "reviewdOn"; did you mean "reviewedOn"?',
        '  product.reviewedOn: required field "reviewedOn" is missing; add it',
        '  startOptions[1].id: id "read-the-docs" is already used by startOptions[0]; give each start option its own "id"',
        '  resources[1].url: URL query parameter "access_token" may carry a credential; link to a public page without it',
        '',
      ].join('\n'),
    );
  });

  it('names the line and column of a syntax error and exits 1', async () => {
    const { path, code, stderr } = await check('broken.json', '{\n  "product": {\n    "name": "Lumen",\n  }\n}\n');
    expect(code).toBe(1);
    expect(stderr).toBe(`Facts file ${path} is not valid JSON at line 4, column 3: expected a member name in double quotes (a comma before "}" is not allowed).\n`);
  });
});
