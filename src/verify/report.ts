/** @module What a verify run found, as lines a person reads at a glance or as JSON for CI. */

export interface Check {
  /** Stable, the same in the lines and the JSON: `get:/api/v1`, `headers.rate-limit`, `mcp.tools`... */
  id: string;
  ok: boolean;
  expected: string;
  got: string;
  /** When it failed: the likely cause and the fix. Empty when it passed. */
  hint: string;
}

export interface Report {
  /** The URL checked. */
  url: string;
  ok: boolean;
  /** Requests sent, the MCP clients' included. */
  requests: number;
  checks: Check[];
  /** Checks left out to stay within the request budget, or because the run stopped. */
  notChecked: string[];
}

export const pass = (id: string, expected: string, got: string): Check => ({ id, ok: true, expected, got, hint: '' });
export const fail = (id: string, expected: string, got: string, hint: string): Check => ({ id, ok: false, expected, got, hint });

/** A check that passes when `problems` is empty, else fails with the first few of them. */
export function checkAll(id: string, expected: string, problems: string[], got: string, hint: string): Check {
  if (problems.length === 0) return pass(id, expected, got);
  const shown = problems.slice(0, 2).join('; ');
  return fail(id, expected, problems.length > 2 ? `${shown}; and ${problems.length - 2} more` : shown, hint);
}

const paint = (on: boolean) => (code: number, text: string) => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

/** One line per check, then the summary line. */
export function formatReport(report: Report, { color = false }: { color?: boolean } = {}): string {
  const c = paint(color);
  const lines = report.checks.map((check) =>
    check.ok
      ? `${c(32, '✓')} ${check.id}  ${check.got}`
      : `${c(31, '✗')} ${c(1, check.id)}  expected ${check.expected}; got ${check.got}${check.hint ? ` ${c(33, `→ ${check.hint}`)}` : ''}`,
  );
  if (report.notChecked.length > 0) lines.push(`${c(2, '·')} not checked: ${report.notChecked.join(', ')}`);
  const failed = report.checks.filter((check) => !check.ok).length;
  const tally = `${report.checks.length - failed} of ${report.checks.length} checks passed, ${failed} failed (${report.requests} requests)`;
  lines.push(failed === 0 ? c(32, `✓ ${report.url} keeps the contract: ${tally}`) : c(31, `✗ ${report.url} breaks the contract: ${tally}`));
  return lines.join('\n');
}

/** `{"ok", "checks": [{"id", "ok", "expected", "got", "hint"}]}`, with the URL, request count and what was not checked. */
export function reportJson(report: Report): string {
  const { ok, checks, url, requests, notChecked } = report;
  return JSON.stringify({ ok, checks, url, requests, notChecked }, null, 2);
}
