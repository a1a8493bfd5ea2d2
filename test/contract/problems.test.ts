/** The problem catalog: every code's body and problem type, valid against their schemas, under the code's own type URI. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { problemBody, problemDescription, problemType } from '../../src/contract/problems.ts';
import { Problem, ProblemType } from '../../src/contract/schemas.ts';
import { PROBLEM_CODES } from '../../src/contract/problem-codes.ts';

const BASE = 'https://api.example.com';

describe('problemBody', () => {
  it.each(PROBLEM_CODES)('gives %s a valid body with its status, title and resolution under {base}', (code) => {
    const body = v.parse(Problem, problemBody(BASE, code));
    const { status, title } = problemDescription(code);
    expect(body).toMatchObject({ type: `${BASE}/problems/${code}`, code, status, title });
    expect(body.resolution).not.toContain('{base}');
  });

  it('adds per-request members', () => {
    expect(problemBody(BASE, 'internal_error', { instance: 'urn:uuid:1' }).instance).toBe('urn:uuid:1');
    expect(problemBody(BASE, 'internal_error')).not.toHaveProperty('instance');
  });
});

describe('problemType', () => {
  it.each(PROBLEM_CODES)('describes %s under its own type URI', (code) => {
    const type = v.parse(ProblemType, problemType(BASE, code));
    expect(type.type).toBe(`${BASE}/problems/${code}`);
    expect(type.status).toBe(problemDescription(code).status);
    expect(type.description).toBe(problemDescription(code).description);
  });
});
