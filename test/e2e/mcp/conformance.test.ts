/**
 * The official MCP conformance suite against /mcp on every entry (Bun, Deno, Node and the Worker in
 * workerd), for both requirement sets: revision 2026-07-28 and 2025-11-25, run side by side. No
 * failure and no warning outside test/fixtures/mcp-conformance-baseline.yml, and no entry there
 * that now passes. The results go to a temporary directory, never into the repository.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  judge,
  readBaseline,
  REQUIREMENT_SETS,
  runScenario,
  runSuite,
  scoredScenarios,
  SKILLS_SCENARIOS,
  type ScenarioResult,
  type SuiteRun,
} from '../../support/conformance.ts';
import { ENTRIES, startEntry, type RunningEntry } from '../../support/entries.ts';

describe('the conformance baseline', () => {
  it('names each entry as scenario or scenario:check-id, once, each under a comment giving its reason', async () => {
    const entries = await readBaseline();
    expect(entries.length).toBeGreaterThan(0);
    for (const { value, explained } of entries) {
      expect(value).toMatch(/^[a-z0-9-]+(:[a-z0-9-]+)?$/);
      expect(explained, `${value} has no comment giving its reason`).toBe(true);
    }
    expect(new Set(entries.map(({ value }) => value)).size).toBe(entries.length);
  });

  it('names only fixtures of the suite and capabilities left out on purpose', async () => {
    const leftOut =
      /^(tools-call-|resources-read-|resources-templates-read|prompts-get-|json-schema-2020-12|http-custom-header-server-validation|completion-|logging-|elicitation-|resources-(un)?subscribe|input-required-result-|tasks-|server-sse-|server-stateless:sep-2575-(server-rejects-undeclared-capability|missing-capability-http-400|http-server-no-independent-requests-on-stream|server-no-log-without-loglevel)$)/;
    for (const { value } of await readBaseline()) expect(value).toMatch(leftOut);
  });
});

describe('the judgement of a run', () => {
  const run = (checks: ScenarioResult['checks'], scenario = 'tools-list'): ScenarioResult[] => [{ scenario, checks }];

  it('finds a failure or a warning outside the baseline, with its message', () => {
    const results = run([
      { id: 'a', status: 'FAILURE', errorMessage: 'broke' },
      { id: 'b', status: 'WARNING' },
      { id: 'c', status: 'SUCCESS' },
    ]);
    expect(judge(results, []).unexpected).toEqual(['tools-list:a FAILURE: broke', 'tools-list:b WARNING']);
    expect(judge(results, ['tools-list:a', 'tools-list:b'])).toEqual({
      unexpected: [],
      stale: [],
      expected: ['tools-list:a', 'tools-list:b'],
    });
    expect(judge(results, ['tools-list']).expected).toEqual(['tools-list']);
  });

  it('counts each check once, at its worst status', () => {
    const results = run([
      { id: 'a', status: 'SUCCESS' },
      { id: 'a', status: 'FAILURE' },
    ]);
    expect(judge(results, []).unexpected).toEqual(['tools-list:a FAILURE']);
  });

  it('finds an entry that now passes, and ignores one for what did not run', () => {
    const results = run([
      { id: 'a', status: 'SUCCESS' },
      { id: 'b', status: 'SKIPPED' },
      { id: 'i', status: 'INFO' },
    ]);
    expect(judge(results, ['tools-list:a', 'tools-list:b', 'tools-list:zz', 'prompts-list']).stale).toEqual(['tools-list:a']);
    expect(judge(results, ['tools-list']).stale).toEqual(['tools-list']);
  });
});

describe.each(ENTRIES)('the official MCP conformance suite against the %s entry', (runtime) => {
  let server: RunningEntry;
  let output: string;
  const runs = new Map<string, SuiteRun>();

  beforeAll(async () => {
    // The suite sends a few hundred requests per run: a quota it never reaches.
    server = await startEntry(runtime, { RATE_LIMIT_QUOTA: '1000000' });
    output = await mkdtemp(join(tmpdir(), `mcp-conformance-${runtime}-`));
    await Promise.all([
      ...REQUIREMENT_SETS.map(async (set) => runs.set(set, await runSuite(`${server.url}/mcp`, set, join(output, set)))),
      ...SKILLS_SCENARIOS.map(async (scenario) =>
        runs.set(scenario, await runScenario(`${server.url}/mcp`, scenario, join(output, scenario))),
      ),
    ]);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    if (output) await rm(output, { recursive: true, force: true });
  });

  it.each(REQUIREMENT_SETS)(
    'requirements %s: every scored scenario ran, nothing failed or warned outside the baseline, no entry is stale',
    async (set) => {
      const run = runs.get(set)!;
      const ran = new Set(run.results.map((result) => result.scenario));
      const missing = (await scoredScenarios(set)).filter((scenario) => !ran.has(scenario));
      expect(missing, `scenarios without results:\n${run.output.slice(-3000)}`).toEqual([]);
      const { unexpected, stale } = judge(
        run.results,
        (await readBaseline()).map(({ value }) => value),
      );
      expect(unexpected, 'failures and warnings outside the baseline').toEqual([]);
      expect(stale, 'baseline entries that now pass: remove them').toEqual([]);
      // The suite's own verdict on its scored scenarios, with the same baseline.
      expect(run.code, run.output.slice(-3000)).toBe(0);
    },
  );

  it.each(SKILLS_SCENARIOS)('the Skills extension scenario %s: every check passes, none excused by the baseline', async (scenario) => {
    const run = runs.get(scenario)!;
    expect(
      run.results.map((result) => result.scenario),
      run.output.slice(-3000),
    ).toEqual([scenario]);
    const checks = run.results[0]!.checks;
    expect(checks.length).toBeGreaterThan(0);
    expect(
      checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO').map((check) => `${check.id} ${check.status}`),
    ).toEqual([]);
    expect(
      judge(
        run.results,
        (await readBaseline()).map(({ value }) => value),
      ).expected,
    ).toEqual([]);
    expect(run.code, run.output.slice(-3000)).toBe(0);
  });
});
