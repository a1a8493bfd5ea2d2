/**
 * @module `verify(url)`: a black-box check of a running deployment over HTTP alone, from the
 * contract and the deployment's own /openapi.json, in at most 60 requests that only read. The
 * `product-discovery verify` command prints its report; another project's tests can call it.
 *
 *   GET /openapi.json -> GET every documented path -> unknown path, wrong method, preflight
 *   -> MCP through both official clients -> HEAD and If-None-Match with the budget left
 *   -> the fields every answer carries, deprecation, discovery documents, {base}, version
 */
import { withoutTrailingSlash } from '../contract/base-url.ts';
import { API_PATH, DOCS_PATH, HEALTH_PATH, MCP_PATH, OPENAPI_PATH, PRODUCT_PATH } from '../route.ts';
import { baseCheck, versionCheck } from './coherence.ts';
import { discoveryChecks } from './discovery.ts';
import { getTargets, loadContract, nonGetPaths, type Target } from './document.ts';
import { deprecationCheck, headerChecks } from './headers.ts';
import { checkConditional, checkGet, checkHead, checkNotFound, checkPreflight, checkWrongMethod, type Probing } from './http.ts';
import { mcpChecks } from './mcp.ts';
import { staleness } from './ratelimit.ts';
import { fail, pass, type Check, type Report } from './report.ts';
import { MAX_REQUESTS, Session, Stop, type Answer } from './session.ts';
import { importOptional } from '../util/optional.ts';

export { formatReport, reportJson, type Check, type Report } from './report.ts';
export { MAX_REQUESTS } from './session.ts';

export interface VerifyOptions {
  /** The request budget (default and most: 60). */
  maxRequests?: number;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: typeof fetch;
}

/** If-None-Match is tried on this many paths; HEAD on every path the budget allows. */
const CONDITIONAL_PATHS = 4;

/** What only verify uses; a production install leaves them out (optional peer dependencies). */
export const VERIFY_PACKAGES = ['@modelcontextprotocol/client', 'ajv', 'ajv-formats'] as const;

/**
 * Throws a StartupError naming VERIFY_PACKAGES when one of them is not installed; the later
 * imports of the checks then come from the module cache.
 */
async function loadDependencies(): Promise<void> {
  await importOptional(
    () => Promise.all([import('@modelcontextprotocol/client'), import('ajv/dist/2020.js'), import('ajv-formats')]),
    VERIFY_PACKAGES,
    'product-discovery verify',
  );
}

export async function verify(url: string, options: VerifyOptions = {}): Promise<Report> {
  await loadDependencies();
  const base = withoutTrailingSlash(url);
  const session = new Session(base, Math.min(options.maxRequests ?? MAX_REQUESTS, MAX_REQUESTS), options.fetch);
  const checks: Check[] = [];
  const notChecked: string[] = [];
  let document: any;
  let servedBase = base;
  const gets = new Map<string, Answer>();
  let serverVersions: { where: string; version: string | undefined }[] = [];
  try {
    const first = await session.request(OPENAPI_PATH);
    document = openApiOf(first);
    if (!document) {
      checks.push(
        fail(
          'openapi',
          `200 with the OpenAPI 3.1 document at ${base}/openapi.json`,
          `${first.status} ${first.headers.get('content-type') ?? ''}`.trim(),
          'the contract is not served at this URL: check the scheme, host and path prefix, and that /openapi.json reaches the service',
        ),
      );
      return finish(base, session, checks, ['every other check']);
    }
    checks.push(
      pass(
        'openapi',
        'the OpenAPI 3.1 document at /openapi.json',
        `OpenAPI ${document.openapi}, ${Object.keys(document.paths).length} paths`,
      ),
    );
    servedBase = withoutTrailingSlash(String(document.servers?.[0]?.url ?? base));
    const probing: Probing = { session, contract: await loadContract(document), servedBase, gets };
    const { targets, unfilled } = getTargets(document);
    notChecked.push(...unfilled.map((template) => `get:${template} (no value to try)`));
    for (const target of targets)
      checks.push(await safely(`get:${target.path}`, () => checkGet(probing, target, target.path === OPENAPI_PATH ? first : undefined)));
    const unknown = [
      `${API_PATH}/this-path-does-not-exist`,
      ...(document.paths[DOCS_PATH] ? [`${DOCS_PATH}/this-asset-does-not-exist`] : []),
    ];
    checks.push(await safely('not-found', () => checkNotFound(probing, unknown)));
    const wrong = nonGetPaths(document);
    if (wrong.length > 0) checks.push(await safely('method-not-allowed', () => checkWrongMethod(probing, wrong)));
    const preflightPath = targets.find((t) => t.path === PRODUCT_PATH)?.path ?? targets[0]?.path ?? OPENAPI_PATH;
    checks.push(await safely('options', () => checkPreflight(probing, preflightPath)));
    if (document.paths[MCP_PATH]?.post) {
      const mcp = await mcpChecks({ session, servedBase, index: jsonOf(gets.get(API_PATH))?.mcp, gets, query: searchQuery(gets) });
      checks.push(...mcp.checks);
      serverVersions = mcp.serverVersions;
    }
    const { heads, conditionals, skipped } = plan(targets, gets, session.remaining());
    notChecked.push(...skipped);
    for (const path of heads) checks.push(await safely(`head:${path}`, () => checkHead(probing, path)));
    for (const path of conditionals) checks.push(await safely(`etag:${path}`, () => checkConditional(probing, path)));
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    checks.push(stopCheck(error, session));
    notChecked.push('the rest of the run');
  }
  if (document) {
    const answers = session.answers;
    checks.push(
      ...headerChecks(answers, servedBase),
      deprecationCheck(answers, jsonOf(gets.get(API_PATH))?.deprecation, document),
      ...(await discoveryChecks(gets, servedBase)),
      baseCheck(base, document, answers),
      versionCheck([
        { where: 'the OpenAPI document', version: document.info?.version },
        { where: 'health', version: jsonOf(gets.get(HEALTH_PATH))?.version },
        { where: 'the server card', version: jsonOf(gets.get('/mcp/server-card'))?.version },
        ...serverVersions,
      ]),
    );
  }
  return finish(base, session, order(checks), notChecked);
}

function finish(url: string, session: Session, checks: Check[], notChecked: string[]): Report {
  return { url, ok: checks.every((check) => check.ok) && !session.stopped, requests: session.count, checks, notChecked };
}

const jsonOf = (answer: Answer | undefined): any => {
  try {
    return answer?.status === 200 ? JSON.parse(answer.body) : undefined;
  } catch {
    return undefined;
  }
};

function openApiOf(answer: Answer): any {
  const document = jsonOf(answer);
  return typeof document?.openapi === 'string' && document.openapi.startsWith('3.1') && document.paths && typeof document.paths === 'object'
    ? document
    : undefined;
}

/** A word of the product's name: what its own search tool should find. */
function searchQuery(gets: Map<string, Answer>): string {
  const name = jsonOf(gets.get(PRODUCT_PATH))?.product?.name ?? jsonOf(gets.get(API_PATH))?.name ?? 'product';
  return (
    String(name)
      .split(/\s+/)
      .find((word) => word.length >= 3) ?? String(name)
  );
}

/** A probe whose request failed (no answer, a timeout) fails its check; the run's stop goes up. */
async function safely(id: string, probe: () => Promise<Check>): Promise<Check> {
  try {
    return await probe();
  } catch (error) {
    if (error instanceof Stop) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return fail(
      id,
      'an answer',
      `${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`,
      'the deployment did not answer in time or closed the connection: check that it is up and that nothing in front drops the request',
    );
  }
}

/** HEAD on every path the budget allows, If-None-Match on a few paths with an ETag. */
function plan(targets: Target[], gets: Map<string, Answer>, budget: number) {
  const answered = targets.map((t) => t.path).filter((path) => gets.get(path)?.status === 200);
  const candidates = answered.filter(
    (path) => gets.get(path)!.headers.has('etag') && !/no-store/.test(gets.get(path)!.headers.get('cache-control') ?? ''),
  );
  const conditionalCount = Math.min(candidates.length, CONDITIONAL_PATHS, Math.max(budget - answered.length, budget > 1 ? 1 : 0));
  const heads = answered.slice(0, Math.max(0, budget - conditionalCount));
  const skipped = answered.slice(heads.length).map((path) => `head:${path} (request budget)`);
  return { heads, conditionals: candidates.slice(0, conditionalCount), skipped };
}

function stopCheck(stop: Stop, session: Session): Check {
  if (stop.reason === 'budget') {
    const hint =
      session.limit < MAX_REQUESTS
        ? `a budget of ${session.limit} does not cover the checks every run makes: give it more, up to ${MAX_REQUESTS}`
        : "a verify defect: report it with the deployment's /openapi.json";
    return fail('budget', `at most ${session.limit} requests`, 'the run needed more', hint);
  }
  const answer = stop.answer!;
  const retry = Number(answer.headers.get('retry-after') ?? 0);
  const stale = staleness(answer);
  if (stale) {
    return fail(
      'rate-limit.cached-429',
      'a 429 only when this client has used its quota, never a stored one',
      `429 to ${answer.method} ${answer.path} after ${session.count} requests, but ${stale}`,
      'a cache in front stores a 429 and serves it to every client: the service marks every error Cache-Control: no-store; make the cache honour it (nginx: no proxy_cache_valid any or proxy_ignore_headers Cache-Control; a CDN: do not cache error statuses)',
    );
  }
  const at = new Date(answer.receivedAt + retry * 1000).toISOString().slice(11, 19);
  return fail(
    'rate-limit.quota',
    `no 429 within the run (at most ${MAX_REQUESTS} requests)`,
    `${answer.status === 429 ? '429' : 'an over-quota JSON-RPC answer'} to ${answer.method} ${answer.path} after ${session.count} requests; Retry-After: ${retry}`,
    `the quota ran out for this client's address (other clients behind it, or an earlier run): the run stopped; retry after ${retry} s (at ${at} UTC)`,
  );
}

const GROUPS = [
  'openapi',
  'base',
  'get:',
  'head:',
  'etag:',
  'not-found',
  'method-not-allowed',
  'options',
  'headers.',
  'deprecation',
  'discovery.',
  'mcp.',
  'version',
  'rate-limit.',
  'budget',
];

/** The order of the lines: the contract first, then each path, the fields, discovery, MCP. */
function order(checks: Check[]): Check[] {
  const rank = (check: Check) =>
    GROUPS.findIndex((group) => check.id === group || (group.endsWith(':') || group.endsWith('.') ? check.id.startsWith(group) : false));
  return checks
    .map((check, i) => ({ check, i }))
    .sort((a, b) => rank(a.check) - rank(b.check) || a.i - b.i)
    .map(({ check }) => check);
}
