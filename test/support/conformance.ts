/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) as its CLI: its dist needs
 * Node 22 or later, so it runs on the project's Bun. Pinned here and installed on first run, not a
 * dev dependency (its engines would make every `npm ci` warn). The suite judges its own run against the
 * baseline (--expected-failures); the same judgement is made here from its results
 * (`<output>/server-<scenario>-<time>/checks.json`) so that a failing test names the checks, and
 * over every scenario run, the ones a requirement set runs without scoring included.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './entries.ts';
import { installedTool } from './tools.ts';

export const REQUIREMENT_SETS = ['2026-07-28', '2025-11-25'] as const;
export const BASELINE = join(ROOT, 'test', 'fixtures', 'mcp-conformance-baseline.yml');
// npm's `latest` tag is still 0.1.16, which knows neither requirement set.
const SUITE_VERSION = '0.2.0-alpha.12';
const NAME = '@modelcontextprotocol/conformance';
const suite = async () => join(await installedTool(NAME, SUITE_VERSION), 'node_modules', NAME);
const BUN = join(ROOT, 'node_modules', '.bin', 'bun');

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}
export interface ScenarioResult {
  scenario: string;
  checks: Check[];
}

/** The entries of a YAML list under `key:` (`  - value` lines), with whether a comment explains each. */
function yamlList(text: string, key: string): { value: string; explained: boolean }[] {
  const entries: { value: string; explained: boolean }[] = [];
  let inList = false;
  let explained = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line) && !line.startsWith('#')) inList = line.startsWith(`${key}:`);
    if (!inList) continue;
    const item = /^\s+-\s+(\S+)/.exec(line);
    if (item) entries.push({ value: item[1]!, explained });
    else if (/^\s*#/.test(line)) explained = true;
    else if (line.trim() === '') explained = false;
  }
  return entries;
}

/** The baseline's `server:` entries, each `scenario` or `scenario:check-id`. */
export async function readBaseline(path = BASELINE) {
  return yamlList(await readFile(path, 'utf8'), 'server');
}

/** The scenarios a requirement set scores, from the suite's frozen requirements file. */
export async function scoredScenarios(requirements: string): Promise<string[]> {
  return yamlList(await readFile(join(await suite(), 'requirements', `${requirements}.yaml`), 'utf8'), 'server').map(({ value }) => value);
}

export interface SuiteRun {
  code: number;
  output: string;
  results: ScenarioResult[];
}

/**
 * The Skills extension's scenarios (SEP-2640): no requirement set runs them, as the extension is
 * optional; they run by name against a server that declares it.
 */
export const SKILLS_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'] as const;

/** Runs the server scenarios of one requirement set against `url`, writing results under `outputDir`. */
export function runSuite(url: string, requirements: string, outputDir: string): Promise<SuiteRun> {
  return runCli(['--requirements', requirements], url, outputDir);
}

/** Runs one scenario by name against `url`, with the same baseline. */
export function runScenario(url: string, scenario: string, outputDir: string): Promise<SuiteRun> {
  return runCli(['--scenario', scenario], url, outputDir);
}

async function runCli(selection: string[], url: string, outputDir: string): Promise<SuiteRun> {
  const cli = join(await suite(), 'dist', 'index.js');
  const args = [cli, 'server', '--url', url, ...selection, '--expected-failures', BASELINE, '-o', outputDir];
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      BUN,
      args,
      { cwd: ROOT, timeout: 300_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
  const results: ScenarioResult[] = [];
  for (const entry of await readdir(outputDir).catch(() => [])) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (!scenario) continue;
    const checks = JSON.parse(await readFile(join(outputDir, entry, 'checks.json'), 'utf8')) as Check[];
    results.push({ scenario, checks });
  }
  return { code, output, results };
}

const SEVERITY: Record<string, number> = { FAILURE: 3, WARNING: 2, SUCCESS: 1 };
const fails = (check: Check) => check.status === 'FAILURE' || check.status === 'WARNING';

/** Each check id once, with its worst status, as the suite counts them. */
function worstById(checks: Check[]): Check[] {
  const worst = new Map<string, Check>();
  for (const check of checks) {
    if (check.status === 'INFO') continue;
    const known = worst.get(check.id);
    if (!known || (SEVERITY[check.status] ?? 0) >= (SEVERITY[known.status] ?? 0)) worst.set(check.id, check);
  }
  return [...worst.values()];
}

/**
 * The suite's baseline rule: a failure or a warning not in the baseline is unexpected; an entry is
 * stale when what it names ran and passed (an entry for a scenario or check this run did not
 * reach is neither).
 */
export function judge(results: ScenarioResult[], entries: string[]) {
  const unexpected: string[] = [];
  const stale: string[] = [];
  const expected: string[] = [];
  for (const { scenario, checks } of results) {
    const failing = worstById(checks).filter(fails);
    if (entries.includes(scenario)) {
      (failing.length > 0 ? expected : stale).push(scenario);
      continue;
    }
    for (const check of failing) {
      const name = `${scenario}:${check.id}`;
      if (entries.includes(name)) expected.push(name);
      else unexpected.push(`${name} ${check.status}${check.errorMessage ? `: ${check.errorMessage}` : ''}`);
    }
    for (const check of worstById(checks)) {
      if (check.status === 'SUCCESS' && entries.includes(`${scenario}:${check.id}`)) stale.push(`${scenario}:${check.id}`);
    }
  }
  return { unexpected, stale, expected };
}
