/** @module Problem answers (RFC 9457): a problem of the catalog (contract/problems.ts) prepared as an answer, once per path or per request. */
import { problemBody, problemDescription, type ProblemMembers } from '../contract/problems.ts';
import type { ProblemCode } from '../contract/schemas.ts';
import type { HeaderRecord } from './headers.ts';
import { prepareFixed, type Prepared } from './prepared.ts';

const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/** A problem answer: `headers` are the fixed ones of its path for this code (see headers.ts). */
export function prepareProblem(base: string, code: ProblemCode, headers: HeaderRecord, members?: ProblemMembers): Prepared {
  return prepareFixed(problemDescription(code).status, problemBody(base, code, members), { contentType: PROBLEM_TYPE, headers });
}
