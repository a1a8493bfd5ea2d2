/** The report as a person reads it (one line per check, a summary, colour only when asked) and as JSON. */
import { describe, expect, it } from 'vitest';
import { fail, formatReport, pass, reportJson, type Report } from '../../src/verify/report.ts';

const report: Report = {
  url: 'https://api.example.com',
  ok: false,
  requests: 39,
  checks: [
    pass('get:/api/v1', '200 application/json', '200 application/json, valid'),
    fail('headers.rate-limit', 'the five fields on every answer', 'RateLimit missing on 39 of 39 answers', 'the proxy in front drops them'),
  ],
  notChecked: ['head:/llms.txt (request budget)'],
};

describe('formatReport', () => {
  it('prints one line per check, what was left out, and a summary', () => {
    expect(formatReport(report).split('\n')).toEqual([
      '✓ get:/api/v1  200 application/json, valid',
      '✗ headers.rate-limit  expected the five fields on every answer; got RateLimit missing on 39 of 39 answers → the proxy in front drops them',
      '· not checked: head:/llms.txt (request budget)',
      '✗ https://api.example.com breaks the contract: 1 of 2 checks passed, 1 failed (39 requests)',
    ]);
  });

  it('colours the marks only when asked', () => {
    expect(formatReport(report)).not.toContain('\u001b[');
    expect(formatReport(report, { color: true })).toContain('\u001b[31m✗\u001b[0m');
    expect(formatReport({ ...report, ok: true, checks: [report.checks[0]!], notChecked: [] }, { color: true })).toBe(
      '\u001b[32m✓\u001b[0m get:/api/v1  200 application/json, valid\n\u001b[32m✓ https://api.example.com keeps the contract: 1 of 1 checks passed, 0 failed (39 requests)\u001b[0m',
    );
  });
});

describe('reportJson', () => {
  it('has ok and checks with id, ok, expected, got and hint, the ids of the lines', () => {
    const json = JSON.parse(reportJson(report));
    expect(json.ok).toBe(false);
    expect(json.checks).toEqual([
      { id: 'get:/api/v1', ok: true, expected: '200 application/json', got: '200 application/json, valid', hint: '' },
      {
        id: 'headers.rate-limit',
        ok: false,
        expected: 'the five fields on every answer',
        got: 'RateLimit missing on 39 of 39 answers',
        hint: 'the proxy in front drops them',
      },
    ]);
  });
});
