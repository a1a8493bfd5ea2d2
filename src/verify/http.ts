/**
 * @module The probes of the REST surface, one check each: GET of every documented path (status,
 * media type, body valid against the served schema), HEAD against GET (RFC 9110 section 9.3.2),
 * If-None-Match (section 13.1.2), problems for an unknown path and a wrong method, the preflight.
 */
import { OPENAPI_PATH } from '../route.ts';
import type { Contract, Target } from './document.ts';
import { describe, mediaType, tokens } from './fields.ts';
import { checkAll, fail, pass, type Check } from './report.ts';
import type { Answer, Session } from './session.ts';

export interface Probing {
  session: Session;
  contract: Contract;
  /** `{base}` as the deployment states it (servers[0].url). */
  servedBase: string;
  /** The GET answer of each path probed. */
  gets: Map<string, Answer>;
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');
/** The contract lets the OpenAPI document use either. */
const OPENAPI_TYPES = ['application/json', 'application/openapi+json'];

function statusHint(answer: Answer, path: string): string {
  if (answer.status >= 300 && answer.status < 400)
    return `it redirects to ${answer.headers.get('location')}: check the URL, and that nothing in front redirects API paths`;
  if (answer.status === 404)
    return `${path} does not reach the service: forward every path of the contract to it (the proxy's location rules, or the host app's mount)`;
  if (answer.status >= 500) return 'the service or something in front of it failed: see their logs';
  return 'something in front answers instead of the service';
}

/** The body parsed as its media type says, or the reason it cannot be. */
function parsed(answer: Answer, type: string): { value?: unknown; error?: string } {
  if (!isJson(type)) return { value: answer.body };
  try {
    return { value: JSON.parse(answer.body) };
  } catch {
    return { error: 'the body is not JSON' };
  }
}

export async function checkGet(probing: Probing, { template, path }: Target, first?: Answer): Promise<Check> {
  const id = `get:${path}`;
  const answer = first ?? (await probing.session.request(path));
  probing.gets.set(path, answer);
  const documented = probing.contract.mediaTypes(template, 'get', 200);
  const expected = `200 ${documented.join(' or ')}, body valid against the served schema`;
  if (answer.status !== 200) return fail(id, expected, describe(answer), statusHint(answer, path));
  const { type, charset } = mediaType(answer.headers.get('content-type'));
  const accepted =
    template === OPENAPI_PATH && documented.some((t) => OPENAPI_TYPES.includes(t)) ? [...documented, ...OPENAPI_TYPES] : documented;
  if (!accepted.includes(type) || (charset && charset !== 'utf-8')) {
    return fail(
      id,
      expected,
      `200 ${answer.headers.get('content-type')}`,
      "something in front rewrites Content-Type (a proxy default type or a CDN transform): pass the service's own through",
    );
  }
  const schemaType = documented.includes(type) ? type : documented[0]!;
  const { value, error } = parsed(answer, type);
  const invalid = error ?? probing.contract.validate(template, 'get', 200, schemaType, value);
  if (invalid) {
    return fail(
      id,
      expected,
      `200 ${type}, ${invalid}`,
      "the body does not match the deployment's own schema: another release answers behind this URL, or a proxy rewrites bodies",
    );
  }
  return pass(id, expected, `200 ${type}, valid against the served schema`);
}

/** The fields a HEAD answer carries as GET does (RFC 9110 section 9.3.2); the per-request ones aside. */
const SAME_AS_GET = [
  'content-type',
  'etag',
  'cache-control',
  'link',
  'vary',
  'content-encoding',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-content-type-options',
  'ratelimit-policy',
  'x-ratelimit-limit',
  'deprecation',
  'sunset',
];

export async function checkHead(probing: Probing, path: string): Promise<Check> {
  const id = `head:${path}`;
  const get = probing.gets.get(path)!;
  const head = await probing.session.request(path, { method: 'HEAD' });
  const expected = `${get.status} with GET's headers, Content-Length equal to GET's or absent`;
  const problems = head.status === get.status ? [] : [`status ${head.status}`];
  for (const name of SAME_AS_GET) {
    if (head.headers.get(name) !== get.headers.get(name))
      problems.push(`${name}: ${head.headers.get(name) ?? '(none)'} where GET has ${get.headers.get(name) ?? '(none)'}`);
  }
  const headLength = head.headers.get('content-length');
  // Without a Content-Length on GET, an unencoded body's length is the one a HEAD may announce.
  const getLength =
    get.headers.get('content-length') ??
    (get.headers.has('content-encoding') ? undefined : String(new TextEncoder().encode(get.body).byteLength));
  if (headLength !== null && getLength !== undefined && headLength !== getLength)
    problems.push(`Content-Length ${headLength} where GET's body is ${getLength} bytes`);
  return checkAll(
    id,
    expected,
    problems,
    `${head.status}, same headers${headLength === null ? ', no Content-Length' : `, Content-Length ${headLength}`}`,
    'HEAD is answered by something other than the service, or its headers are changed on the way (RFC 9110 sections 8.6 and 9.3.2)',
  );
}

export async function checkConditional(probing: Probing, path: string): Promise<Check> {
  const id = `etag:${path}`;
  const etag = probing.gets.get(path)!.headers.get('etag')!;
  const answer = await probing.session.request(path, { headers: { 'if-none-match': etag } });
  const expected = `304 with ETag ${etag} to If-None-Match: ${etag}`;
  if (answer.status === 304 && answer.headers.get('etag') === etag && answer.body === '') return pass(id, expected, `304, ETag ${etag}`);
  return fail(
    id,
    expected,
    `${describe(answer)}${answer.headers.get('etag') === etag ? '' : `, ETag ${answer.headers.get('etag') ?? '(none)'}`}`,
    'a cache or proxy in front ignores If-None-Match or changes the ETag: let conditional requests through, and keep strong ETags (a proxy that compresses on the fly must weaken them, W/)',
  );
}

/** Whether an error answer is the contract's problem: the checks both error probes share. */
function problemProblems(probing: Probing, answer: Answer, status: number, code: string): string[] {
  const { type } = mediaType(answer.headers.get('content-type'));
  if (answer.status !== status || type !== 'application/problem+json') return [`${answer.method} ${answer.path}: ${describe(answer)}`];
  let body: any;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [`${answer.method} ${answer.path}: the body is not JSON`];
  }
  const invalid = probing.contract.validateComponent('Problem', body);
  if (invalid) return [`${answer.method} ${answer.path}: ${invalid}`];
  if (body.code !== code || body.status !== status) return [`${answer.method} ${answer.path}: code ${body.code}, status ${body.status}`];
  if (body.type !== `${probing.servedBase}/problems/${code}`)
    return [`${answer.method} ${answer.path}: type ${body.type}, not {base}/problems/${code}`];
  return [];
}

export async function checkNotFound(probing: Probing, paths: string[]): Promise<Check> {
  const problems: string[] = [];
  for (const path of paths) {
    // As a browser asks: an error page that answers HTML to such clients is caught too.
    const answer = await probing.session.request(path, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    problems.push(...problemProblems(probing, answer, 404, 'api_route_not_found'));
  }
  const html = problems.some((problem) => problem.includes('text/html'));
  return checkAll(
    'not-found',
    `404 application/problem+json (code api_route_not_found), never HTML, for ${paths.join(' and ')}`,
    problems,
    '404 problems',
    html
      ? "something in front replaces the service's 404 with an HTML page (nginx proxy_intercept_errors with error_page, a CDN custom error page, a host app's catch-all): pass the service's problem through"
      : 'an unknown path does not reach the service, or something in front answers it: forward every path (not only the known ones) to the service',
  );
}

export async function checkWrongMethod(probing: Probing, targets: { path: string; methods: string[] }[]): Promise<Check> {
  const problems: string[] = [];
  for (const { path, methods } of targets) {
    const answer = await probing.session.request(path);
    problems.push(...problemProblems(probing, answer, 405, 'method_not_allowed'));
    const allow = tokens(answer.headers.get('allow'));
    if (answer.status === 405 && !methods.every((method) => allow.includes(method.toLowerCase()))) {
      problems.push(`GET ${path}: Allow ${answer.headers.get('allow') ?? '(none)'} lacks ${methods.join(', ')}`);
    }
  }
  return checkAll(
    'method-not-allowed',
    `405 application/problem+json (code method_not_allowed) with Allow for GET ${targets.map((t) => t.path).join(', ')}`,
    problems,
    '405 problems with Allow',
    'a wrong method does not reach the service, or something in front answers it or drops Allow: pass every method through to the service',
  );
}

export async function checkPreflight(probing: Probing, path: string): Promise<Check> {
  const answer = await probing.session.request(path, {
    method: 'OPTIONS',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
  });
  const allow = tokens(answer.headers.get('allow'));
  const ok = answer.status === 204 && ['get', 'head', 'options'].every((method) => allow.includes(method));
  const expected = `204 with Allow: GET, HEAD, OPTIONS to OPTIONS ${path}`;
  return ok
    ? pass('options', expected, `204, Allow: ${answer.headers.get('allow')}`)
    : fail(
        'options',
        expected,
        `${describe(answer)}, Allow: ${answer.headers.get('allow') ?? '(none)'}`,
        'something in front answers OPTIONS itself or refuses it: pass preflights through to the service',
      );
}
