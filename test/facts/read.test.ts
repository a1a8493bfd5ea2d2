/**
 * Reading a facts file, as every way in does: the file's facts checked, the shipped sample when no
 * file is named, and a file that cannot be read refused in one wording that names who gave the path.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFacts, readFactsFile } from '../../src/facts/read.ts';
import { StartupError } from '../../src/util/startup-error.ts';
import { ROOT } from '../support/entries.ts';

const dir = mkdtempSync(join(tmpdir(), 'facts-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (path: string) => readFile(path, 'utf8');
const sample = () => JSON.parse(readFileSync(join(ROOT, 'src/facts/sample-facts.json'), 'utf8'));

describe('reading a facts file', () => {
  it('returns the checked facts of the file', async () => {
    const path = join(dir, 'renamed.json');
    writeFileSync(path, JSON.stringify({ ...sample(), product: { ...sample().product, name: 'Renamed' } }));
    expect((await readFactsFile(path, read)).product.name).toBe('Renamed');
    expect((await readFacts(path, read)).product.name).toBe('Renamed');
  });

  it('serves the shipped sample when no file is named', async () => {
    expect((await readFacts(undefined, read)).product.name).toBe(sample().product.name);
  });

  it.each([
    ['FACTS_FILE', (path: string) => `FACTS_FILE=${JSON.stringify(path)}`],
    ['argument', (path: string) => `Facts file ${path}`],
  ] as const)('refuses a file that cannot be read, named by %s, in one wording', async (namedBy, named) => {
    const missing = join(dir, 'missing.json');
    const refusal = readFactsFile(missing, read, namedBy);
    await expect(refusal).rejects.toBeInstanceOf(StartupError);
    await expect(refusal).rejects.toThrow(
      `${named(missing)} cannot be read (ENOENT: no such file or directory): check the path to the facts JSON file.`,
    );
  });

  it('refuses a file the check refuses, naming the file', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{');
    await expect(readFacts(path, read)).rejects.toThrow(`Facts file ${path} is not valid JSON`);
  });
});
