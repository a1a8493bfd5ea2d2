/**
 * `product-discovery check FILE`, run through the command line in this process: a facts file accepted
 * (exit 0) or every refused field printed (exit 1), in words about the file, not a variable.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import { ROOT } from '../support/entries.ts';

const dir = mkdtempSync(join(tmpdir(), 'cli-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command line; what it wrote to stdout and stderr, and its exit code. */
async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`), color: false });
  return { code, stdout, stderr };
}

describe('check FILE', () => {
  const sample = () => JSON.parse(readFileSync(join(ROOT, 'src/facts/sample-facts.json'), 'utf8'));

  async function check(name: string, text: string) {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { path, ...(await run('check', path)) };
  }

  it('exits 0 for a file start-up would serve, $schema and byte order mark included', async () => {
    const text = `\uFEFF${JSON.stringify({ $schema: './node_modules/product-discovery-api/dist/schemas/facts.json', ...sample() }, null, 2)}`;
    const { path, code, stdout, stderr } = await check('good.json', text);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`${path} would be served: Lumen Galleries, 9 resources, 4 start options.\n`);
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

  it.each([
    ['src/facts/sample-facts.json', 3, "creating a gallery (product.actionsNeedingApproval[0]), which needs a person's approval"],
    ['test/fixtures/notebook-facts.json', 2, "starting a paid plan (product.actionsNeedingApproval[2]), which needs a person's approval"],
  ])('refuses, in %s, a start option that performs an action needing approval marked as needing none', async (file, index, why) => {
    const facts = JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
    facts.startOptions[index].requiresHumanApproval = false;
    const { path, code, stdout, stderr } = await check(`unapproved-${index}.json`, JSON.stringify(facts));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Facts file ${path} was refused:\n  startOptions[${index}].requiresHumanApproval: false, but the option performs ${why}; set it to true\n`,
    );
  });

  it.each([
    ['2026-13-01', 'month 13'],
    ['2026-00-10', 'month 00'],
    ['2026-01-32', 'day 32'],
  ])('names the impossible date %s in one line and exits 1', async (date, what) => {
    const facts = sample();
    facts.product.reviewedOn = date;
    const { path, code, stdout, stderr } = await check(`date-${date}.json`, JSON.stringify(facts));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Facts file ${path} was refused:\n` +
        `  product.reviewedOn: "${date}" is not a date that exists (there is no ${what}); give a real calendar date (YYYY-MM-DD)\n`,
    );
  });

  it('names the line and column of a syntax error and exits 1', async () => {
    const { path, code, stderr } = await check('broken.json', '{\n  "product": {\n    "name": "Lumen",\n  }\n}\n');
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Facts file ${path} is not valid JSON at line 4, column 3: expected a member name in double quotes (a comma before "}" is not allowed).\n`,
    );
  });

  it('speaks of the file, not of a variable, when it cannot be read', async () => {
    const missing = join(dir, 'missing.json');
    expect(await run('check', missing)).toEqual({
      code: 1,
      stdout: '',
      stderr: `Facts file ${missing} cannot be read (ENOENT: no such file or directory): check the path to the facts JSON file.\n`,
    });
    const { code, stderr } = await run('check', dir);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Facts file ${dir} cannot be read (EISDIR: illegal operation on a directory): check the path to the facts JSON file.\n`,
    );
  });
});
