/**
 * @module The fields every answer must carry, checked on every answer of the run (REST probes and
 * the MCP clients' exchanges alike): nosniff, the service-desc Link, CORS, the rate-limit fields
 * coherent with each other, ETag on GET 200s, no-store on errors and health, and the deprecation
 * fields while the index announces one.
 */
import { EXPOSED_HEADERS } from '../http/headers.ts';
import { HEALTH_PATH, isV1Path, OPENAPI_PATH } from '../route.ts';
import type { ApiIndex } from '../contract/schemas.ts';
import { linkTargets, tokens } from './fields.ts';
import { incoherence, missingFields } from './ratelimit.ts';
import { checkAll, type Check } from './report.ts';
import type { Answer } from './session.ts';

/** Each distinct problem once, with how many answers have it and the first that does. */
function tally(answers: Answer[], problemOf: (answer: Answer) => string | undefined): string[] {
  const seen = new Map<string, { count: number; first: Answer }>();
  for (const answer of answers) {
    const problem = problemOf(answer);
    if (!problem) continue;
    const entry = seen.get(problem);
    if (entry) entry.count++;
    else seen.set(problem, { count: 1, first: answer });
  }
  return [...seen].map(
    ([problem, { count, first }]) => `${problem} on ${count} of ${answers.length} answers (first: ${first.method} ${first.path})`,
  );
}

const all = (answers: Answer[]) => `on all ${answers.length} answers`;

export function headerChecks(answers: Answer[], servedBase: string): Check[] {
  const serviceDesc = `${servedBase}${OPENAPI_PATH}`;
  return [
    checkAll(
      'headers.nosniff',
      'X-Content-Type-Options: nosniff on every answer',
      tally(answers, (a) =>
        a.headers.get('x-content-type-options')?.toLowerCase() === 'nosniff'
          ? undefined
          : `X-Content-Type-Options ${a.headers.get('x-content-type-options') ?? 'missing'}`,
      ),
      all(answers),
      "the proxy in front drops or replaces it: pass the service's X-Content-Type-Options through (nginx: check proxy_hide_header)",
    ),
    checkAll(
      'headers.link',
      `Link: <${serviceDesc}>; rel="service-desc" on every answer`,
      tally(answers, (a) =>
        linkTargets(a.headers.get('link'), 'service-desc').includes(serviceDesc)
          ? undefined
          : a.headers.has('link')
            ? `Link without it (${a.headers.get('link')})`
            : 'Link missing',
      ),
      all(answers),
      'the proxy in front drops or rewrites Link: pass it through unchanged (nginx: check proxy_hide_header; a CDN: its transform rules)',
    ),
    checkAll(
      'headers.cors',
      "Access-Control-Allow-Origin: *, no credentials, the contract's Access-Control-Expose-Headers on every answer; preflights allow GET",
      tally(answers, corsProblem),
      all(answers),
      "the proxy in front drops or overrides the CORS fields, so browsers refuse to read the answers: pass the service's Access-Control-* fields through, and let it answer preflights",
    ),
    rateLimitCheck(answers),
    checkAll(
      'headers.etag',
      'ETag on every GET 200',
      tally(
        answers.filter((a) => a.method === 'GET' && a.status === 200 && !a.mcp),
        (a) => (a.headers.get('etag') ? undefined : 'ETag missing'),
      ),
      'on every GET 200',
      'something in front strips ETag (some CDNs and compressing proxies do): keep it, weakened (W/) if the body is re-encoded',
    ),
    checkAll(
      'headers.cache-control',
      'Cache-Control: no-store on every error answer and on health',
      tally(
        answers.filter((a) => a.status >= 400 || (a.path === HEALTH_PATH && a.status === 200)),
        (a) =>
          tokens(a.headers.get('cache-control')).includes('no-store')
            ? undefined
            : `Cache-Control ${a.headers.get('cache-control') ?? 'missing'}`,
      ),
      'no-store on errors and health',
      "something in front replaces Cache-Control, so errors and health can be cached and served to others: pass the service's Cache-Control through",
    ),
  ];
}

function corsProblem(answer: Answer): string | undefined {
  const { headers } = answer;
  if (headers.get('access-control-allow-origin') !== '*')
    return `Access-Control-Allow-Origin ${headers.get('access-control-allow-origin') ?? 'missing'}`;
  if (headers.has('access-control-allow-credentials')) return 'Access-Control-Allow-Credentials present';
  const exposed = tokens(headers.get('access-control-expose-headers'));
  const lacking = EXPOSED_HEADERS.filter((name) => !exposed.includes(name.toLowerCase()));
  if (lacking.length > 0) return `Access-Control-Expose-Headers lacks ${lacking.join(', ')}`;
  if (answer.method === 'OPTIONS' && !tokens(headers.get('access-control-allow-methods')).includes('get')) {
    return `Access-Control-Allow-Methods ${headers.get('access-control-allow-methods') ?? 'missing'} on the preflight`;
  }
  return undefined;
}

function rateLimitCheck(answers: Answer[]): Check {
  const missing = tally(answers, (a) => {
    const lacking = missingFields(a);
    return lacking.length > 0 ? `${lacking.join(', ')} missing` : undefined;
  });
  const incoherent = tally(answers, (a) => (missingFields(a).length > 0 ? undefined : incoherence(a)));
  return checkAll(
    'headers.rate-limit',
    'RateLimit-Policy, RateLimit and X-RateLimit-* on every answer, coherent (same policy, q = X-RateLimit-Limit, r = X-RateLimit-Remaining, X-RateLimit-Reset = now + t)',
    [...missing, ...incoherent],
    all(answers),
    missing.length > 0
      ? 'the proxy in front drops them; nginx passes upstream fields by default, check proxy_hide_header and more_clear_headers; on a CDN, its response header transform rules'
      : 'the fields disagree: something in front sets its own rate-limit fields, or serves stored answers with stale ones',
  );
}

/** A deprecation as the index announces it. */
type Announced = NonNullable<ApiIndex['deprecation']>;

/** RFC 9745 Deprecation, RFC 8594 Sunset and the successor Link on every /api/v1 answer while announced; none otherwise. */
export function deprecationCheck(answers: Answer[], announced: Announced | undefined, document: any): Check {
  const v1 = answers.filter((a) => isV1Path(a.path));
  if (!announced) {
    return checkAll(
      'deprecation',
      'no Deprecation or Sunset while the index announces none',
      tally(v1, (a) =>
        a.headers.has('deprecation') || a.headers.has('sunset') ? 'Deprecation or Sunset without an announcement' : undefined,
      ),
      'none announced, none sent',
      'an instance that announces a deprecation answers beside one that does not: give every instance the same DEPRECATION_DATE and SUNSET_DATE',
    );
  }
  const deprecation = `@${Math.floor(Date.parse(announced.deprecatedAt) / 1000)}`;
  const sunset = new Date(announced.sunsetAt).toUTCString();
  const problems = tally(v1, (a) => {
    if (a.headers.get('deprecation') !== deprecation) return `Deprecation ${a.headers.get('deprecation') ?? 'missing'}`;
    if (a.headers.get('sunset') !== sunset) return `Sunset ${a.headers.get('sunset') ?? 'missing'}`;
    return linkTargets(a.headers.get('link'), 'successor-version').includes(announced.successor) ? undefined : 'no successor-version Link';
  });
  const undeprecated = Object.entries<any>(document.paths ?? {})
    .filter(([path]) => isV1Path(path))
    .filter(([, item]) => item.get && item.get.deprecated !== true)
    .map(([path]) => `GET ${path} not deprecated in the OpenAPI document`);
  return checkAll(
    'deprecation',
    `Deprecation: ${deprecation}, Sunset: ${sunset} and Link rel="successor-version" to ${announced.successor} on every /api/v1 answer`,
    [...problems, ...undeprecated],
    `announced: deprecated ${announced.deprecatedAt}, sunset ${announced.sunsetAt}`,
    'the proxy in front drops Deprecation, Sunset or Link, or instances with different settings answer together: pass the fields through and configure every instance alike',
  );
}
