/**
 * @module The rate-limit fields of one answer, read as a client reads them: RateLimit-Policy and
 * RateLimit as RFC 9651 structured-field Lists (draft-ietf-httpapi-ratelimit-headers), and
 * whether they agree with the X-RateLimit-* fields and with the time the answer was made.
 */
import { parseList, type Item } from 'structured-headers';
import { RATE_LIMIT_HEADERS } from '../http/headers.ts';
import type { Answer } from './session.ts';

/**
 * Date has whole seconds, and the service rounds the reset: two seconds of slack either way, plus the
 * time the answer took, as the fields are fixed when the request is counted and Date when it is sent.
 */
const SLACK_SECONDS = 2;

/** The fields this answer lacks. */
export function missingFields(answer: Answer): string[] {
  return RATE_LIMIT_HEADERS.filter((name) => !answer.headers.has(name));
}

function members(field: string, name: string): Item[] {
  let list: ReturnType<typeof parseList>;
  try {
    list = parseList(field);
  } catch {
    throw new Error(`${name} is not a structured-field List: ${field}`);
  }
  if (list.length === 0 || list.some(([value]) => Array.isArray(value))) throw new Error(`${name} has no policy item: ${field}`);
  return list as Item[];
}

const integerParam = (item: Item, key: string, name: string): number => {
  const value = item[1].get(key);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`${name} has no whole ${key}: ${String(value)}`);
  return value;
};

/** When the answer was made: its Date (a cache keeps the origin's), or its arrival less its Age. */
function madeAt(answer: Answer): number[] {
  const date = Date.parse(answer.headers.get('date') ?? '');
  const age = Number(answer.headers.get('age') ?? 0) || 0;
  const arrival = answer.receivedAt / 1000 - age;
  return Number.isNaN(date) ? [arrival] : [date / 1000, date / 1000 - age];
}

/** Why the fields of an answer that has all five disagree, or undefined when they agree. */
export function incoherence(answer: Answer): string | undefined {
  const field = (name: string) => answer.headers.get(name)!;
  try {
    const policies = members(field('RateLimit-Policy'), 'RateLimit-Policy');
    const [state, ...others] = members(field('RateLimit'), 'RateLimit');
    if (others.length > 0) return `RateLimit names ${others.length + 1} policies; the answer's client is counted under one`;
    const name = String(state![0]);
    const policy = policies.find(([value]) => String(value) === name);
    if (!policy) return `RateLimit names "${name}", which RateLimit-Policy does not (${field('RateLimit-Policy')})`;
    const [quota, window] = [integerParam(policy, 'q', 'RateLimit-Policy'), integerParam(policy, 'w', 'RateLimit-Policy')];
    const [remaining, reset] = [integerParam(state!, 'r', 'RateLimit'), integerParam(state!, 't', 'RateLimit')];
    if (field('X-RateLimit-Limit') !== String(quota))
      return `X-RateLimit-Limit ${field('X-RateLimit-Limit')} is not RateLimit-Policy q=${quota}`;
    if (field('X-RateLimit-Remaining') !== String(remaining))
      return `X-RateLimit-Remaining ${field('X-RateLimit-Remaining')} is not RateLimit r=${remaining}`;
    if (remaining > quota) return `RateLimit r=${remaining} is more than the quota q=${quota}`;
    if (reset > window) return `RateLimit t=${reset} is longer than the window w=${window}`;
    const epoch = Number(field('X-RateLimit-Reset'));
    const slack = SLACK_SECONDS + Math.max(0, answer.receivedAt - answer.sentAt) / 1000;
    const near = madeAt(answer).some((made) => Math.abs(epoch - (made + reset)) <= slack);
    if (!/^\d+$/.test(field('X-RateLimit-Reset')) || !near) {
      return `X-RateLimit-Reset ${field('X-RateLimit-Reset')} is not the answer's time plus RateLimit t=${reset} (${Math.round(madeAt(answer)[0]! + reset)})`;
    }
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Why a 429 was not made for this request but stored by a cache, or undefined when it looks fresh:
 * an `Age`, or a window that had already ended when it arrived.
 */
export function staleness(answer: Answer): string | undefined {
  const age = Number(answer.headers.get('age') ?? 0);
  if (age > 0) return `it carries Age: ${age}`;
  const reset = Number(answer.headers.get('x-ratelimit-reset'));
  const ended = answer.receivedAt / 1000 - reset;
  return Number.isFinite(reset) && reset > 0 && ended > SLACK_SECONDS
    ? `its window had ended ${Math.round(ended)} s before it arrived (X-RateLimit-Reset ${reset})`
    : undefined;
}
