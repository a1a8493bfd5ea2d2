/**
 * The served OpenAPI document through the Redocly linter, run as its own process (test/openapi.test.ts
 * checks the document in process).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { get, makeHandler } from '../support/handler.ts';
import { ROOT } from '../support/entries.ts';

describe('the served OpenAPI document', () => {
  let dir: string | undefined;
  afterAll(() => dir && rm(dir, { recursive: true, force: true }));

  it('passes the Redocly linter with zero errors', async () => {
    const handle = await makeHandler();
    const doc = await (await handle(get('/openapi.json'))).json();
    await handle.close();
    dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const run = promisify(execFile)(join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--format', 'json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const { stdout } = await run.catch((error) => error);
    const report = JSON.parse(stdout);
    const errors = report.problems.filter((problem: { severity: string }) => problem.severity === 'error');
    expect(errors).toEqual([]);
  }, 60_000);
});
