/**
 * HTTP helpers for the end-to-end tests: a plain node:http client (no automatic Accept-Encoding,
 * no transparent decompression), a raw-socket client that sees every byte a HEAD answer sends,
 * the header checks every response must pass, the contract's problem answers, and the served OpenAPI
 * document as a validator.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parseList, type Item, type List } from 'structured-headers';
import { expect } from 'vitest';
import { EXPOSED } from './cases.ts';

export interface Reply {
  status: number;
  /** Lower-case names; repeated fields joined with ", " (as node:http does for most fields). */
  headers: Record<string, string>;
  /** The field names as the server wrote them, in its order. */
  names: string[];
  body: Buffer;
  text(): string;
  json(): any;
}

function reply(status: number, raw: string[], body: Buffer): Reply {
  const names = raw.filter((_, i) => i % 2 === 0);
  return { status, headers: flatten(raw), names, body, text: () => body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) };
}

function flatten(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    headers[name] = name in headers ? `${headers[name]}, ${raw[i + 1]}` : raw[i + 1]!;
  }
  return headers;
}

/** One request on its own connection; nothing is added to the headers and nothing is decoded. */
export function send(
  url: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(reply(res.statusCode!, res.rawHeaders, Buffer.concat(chunks))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends a request over a bare socket with `Connection: close` and returns everything the server
 * wrote after the header block: for a HEAD answer that must be nothing at all (RFC 9110 section 9.3.2).
 */
export function sendRaw(url: string, method: string, path: string, headers: Record<string, string> = {}, body = ''): Promise<Reply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${method} ${path}: the server did not close the connection after answering (Connection: close)`));
    }, 10_000);
    // workerd keeps the connection open for seconds despite Connection: close; once the answer is
    // complete, anything more would arrive at once, so a short quiet spell ends the wait as well.
    let quiet: ReturnType<typeof setTimeout> | undefined;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(quiet);
      if (complete(Buffer.concat(chunks), method)) quiet = setTimeout(() => socket.destroy(), 300);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`${method} ${path}: incomplete answer: ${JSON.stringify(all.toString('latin1'))}`));
      const [statusLine, ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
      const raw = lines.flatMap((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
      });
      resolve(reply(status, raw, all.subarray(end + 4)));
    });
    const head = [`${method} ${path} HTTP/1.1`, `Host: ${new URL(url).host}`, 'Connection: close'];
    for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

/** Whether a raw answer holds its whole header block and as many body bytes as it announces. */
function complete(all: Buffer, method: string): boolean {
  const end = all.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = all.subarray(0, end).toString('latin1');
  if (method === 'HEAD' || /^HTTP\/1\.[01] (1\d\d|204|304)/.test(head)) return true;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  return length !== null && all.byteLength - end - 4 >= Number(length[1]);
}

/** RFC 8288 Link field values: `<uri>; name="value"; ...`, comma-separated. */
export function parseLinks(header: string | undefined): { uri: string; params: Record<string, string> }[] {
  if (!header) return [];
  const token = '[A-Za-z0-9!#$&+.^_`|~-]+';
  const param = `;\\s*(${token})(?:\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s;,"]+)))?\\s*`;
  const link = new RegExp(`\\s*<([^>]*)>\\s*((?:${param})*)(?:,|$)`, 'y');
  const links: { uri: string; params: Record<string, string> }[] = [];
  while (link.lastIndex < header.length) {
    const at = link.lastIndex;
    const match = link.exec(header);
    if (!match) throw new Error(`unparsable Link header at ${at}: ${JSON.stringify(header)}`);
    const params: Record<string, string> = {};
    for (const [, name, quoted, bare] of match[2]!.matchAll(new RegExp(param, 'g'))) {
      params[name!.toLowerCase()] = (quoted ?? bare ?? '').replace(/\\(.)/g, '$1');
    }
    links.push({ uri: match[1]!, params });
  }
  return links;
}

/** A comma-separated list of tokens (Allow, Access-Control-*), upper- or lower-cased for comparison. */
export function tokens(header: string | undefined, toCase: 'upper' | 'lower' = 'lower'): string[] {
  return (header ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => (toCase === 'upper' ? item.toUpperCase() : item.toLowerCase()));
}

/** The one member of a RateLimit or RateLimit-Policy List (RFC 9651), checked to be the `default` policy. */
function defaultPolicy(list: List, field: string): Item {
  expect(list, `${field} has one member`).toHaveLength(1);
  const member = list[0]!;
  expect(Array.isArray(member[0]), `${field} member is an Item, not an Inner List`).toBe(false);
  expect(member[0], `${field} names the policy with an sf-string`).toBe('default');
  return member as Item;
}

export interface RateLimitSnapshot {
  quota: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window resets, from RateLimit `t`. */
  resetSeconds: number;
  /** X-RateLimit-Reset (Unix seconds). */
  resetEpoch: number;
}

/** Checks the five rate-limit fields agree with each other and returns their values. */
export function rateLimit(headers: Record<string, string>, quota: number, windowSeconds = 60): RateLimitSnapshot {
  for (const name of ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(headers[name], `${name} is present`).toBeDefined();
  }
  const [, policy] = defaultPolicy(parseList(headers['ratelimit-policy']!), 'RateLimit-Policy');
  expect(policy.get('q'), 'RateLimit-Policy q').toBe(quota);
  expect(policy.get('w'), 'RateLimit-Policy w').toBe(windowSeconds);
  const [, state] = defaultPolicy(parseList(headers.ratelimit!), 'RateLimit');
  const remaining = state.get('r');
  const reset = state.get('t');
  expect(Number.isInteger(remaining), 'RateLimit r is an integer').toBe(true);
  expect(Number.isInteger(reset), 'RateLimit t is an integer').toBe(true);
  expect(remaining as number).toBeGreaterThanOrEqual(0);
  expect(remaining as number).toBeLessThanOrEqual(quota);
  expect(reset as number).toBeGreaterThanOrEqual(0);
  expect(reset as number).toBeLessThanOrEqual(windowSeconds);

  expect(headers['x-ratelimit-limit']).toBe(String(quota));
  expect(headers['x-ratelimit-remaining'], 'X-RateLimit-Remaining equals RateLimit r').toBe(String(remaining));
  expect(headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  const resetEpoch = Number(headers['x-ratelimit-reset']);
  // Unix epoch seconds (not a delta): within one window of now, give or take clock rounding.
  const now = Date.now() / 1000;
  expect(resetEpoch).toBeGreaterThanOrEqual(Math.floor(now) - 1);
  expect(resetEpoch).toBeLessThanOrEqual(Math.ceil(now) + windowSeconds + 1);
  return { quota, windowSeconds, remaining: remaining as number, resetSeconds: reset as number, resetEpoch };
}

/**
 * The headers the contract puts on every response (200, 304, errors, 429, preflights):
 * nosniff, the service-desc Link, CORS without credentials, the exposed headers and the five
 * rate-limit fields.
 */
export function expectEveryResponseHeaders(response: Reply, base: string, quota: number): RateLimitSnapshot {
  const { headers } = response;
  expect(headers['x-content-type-options'], 'X-Content-Type-Options').toBe('nosniff');
  const links = parseLinks(headers.link);
  expect(
    links.some((link) => link.uri === `${base}/openapi.json` && tokens(link.params.rel).includes('service-desc')),
    `Link ${headers.link} has <${base}/openapi.json>; rel="service-desc"`,
  ).toBe(true);
  expect(headers['access-control-allow-origin'], 'Access-Control-Allow-Origin').toBe('*');
  expect(headers['access-control-allow-credentials'], 'no Access-Control-Allow-Credentials').toBeUndefined();
  expect(tokens(headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(EXPOSED.map((name) => name.toLowerCase())));
  return rateLimit(headers, quota);
}

/** application/json or application/problem+json (optionally application/openapi+json), UTF-8 if a charset is given. */
export function expectMediaType(headers: Record<string, string>, ...types: string[]) {
  const contentType = headers['content-type'];
  expect(contentType, 'Content-Type is present').toBeDefined();
  const [type, ...params] = contentType!.split(';').map((part) => part.trim().toLowerCase());
  expect(types).toContain(type);
  const charset = params.find((param) => param.startsWith('charset='));
  if (charset) expect(charset.slice('charset='.length).replace(/"/g, '')).toBe('utf-8');
}

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/**
 * Validates bodies against the schema the served OpenAPI document gives for an operation and status
 * (response `$ref`s into components are followed; schemas are compiled by Ajv for JSON Schema 2020-12).
 */
export function openApiValidator(document: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'urn:served:openapi' });
  const pointer = (ref: string) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);

  const pointerEscape = (key: string) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'));
  const cache = new Map<string, ValidateFunction>();

  const compiled = (ref: string) => {
    let check = cache.get(ref);
    if (!check) {
      check = ajv.compile({ $ref: `urn:served:openapi${ref}` });
      cache.set(ref, check);
    }
    return check;
  };
  const run = (check: ValidateFunction, body: unknown, what: string) => {
    const valid = check(body);
    expect(valid ? [] : check.errors, `${what} validates against the served OpenAPI document`).toEqual([]);
  };

  /** The body of `method path` answered with `status` and `mediaType`. */
  function response(path: string, method: string, status: number, mediaType: string, body: unknown) {
    const operation = document.paths?.[path]?.[method.toLowerCase()];
    expect(operation, `the OpenAPI document has ${method} ${path}`).toBeDefined();
    let at = `#/paths/${pointerEscape(path)}/${method.toLowerCase()}/responses/${status}`;
    let response = operation.responses?.[String(status)];
    expect(response, `${method} ${path} documents a ${status} response`).toBeDefined();
    if (response.$ref) {
      at = response.$ref;
      response = pointer(response.$ref);
    }
    expect(response?.content?.[mediaType]?.schema, `${method} ${path} ${status} documents a ${mediaType} schema`).toBeDefined();
    run(compiled(`${at}/content/${pointerEscape(mediaType)}/schema`), body, `the ${method} ${path} ${status} body`);
  }

  /** A body against a named schema in components (e.g. Problem, for paths the document cannot list). */
  function schema(name: string, body: unknown) {
    expect(document.components?.schemas?.[name], `the OpenAPI document has the ${name} schema`).toBeDefined();
    run(compiled(`#/components/schemas/${name}`), body, `the ${name} body`);
  }

  return { response, schema };
}

/** The problem types of the contract's error table. */
export const PROBLEMS: Record<string, { status: number; title: string }> = {
  api_route_not_found: { status: 404, title: 'API route not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Not acceptable' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  origin_not_allowed: { status: 403, title: 'Origin not allowed' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
};

/** Every string in a JSON value, so the index can be checked for its links without fixing its layout. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

function directives(cacheControl: string | undefined): string[] {
  return tokens(cacheControl).sort();
}

export function expectCacheControl(headers: Record<string, string>, expected: string) {
  expect(directives(headers['cache-control']), 'Cache-Control').toEqual(directives(expected));
}

/** RFC 9110 section 8.8.3: an entity tag, strong or weak. */
export const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** A HEAD answer carries no body and a Content-Length equal to the GET body's length, or none (RFC 9110 section 8.6). */
export function expectHeadMatchesGet(head: Reply, get: Reply) {
  expect(head.body.byteLength, 'a HEAD answer has no body').toBe(0);
  const length = head.headers['content-length'];
  if (get.body.byteLength > 0) expect(length, 'Content-Length on a HEAD of a non-empty resource').not.toBe('0');
  if (length !== undefined) expect(length, 'HEAD Content-Length equals the GET body length').toBe(String(get.body.byteLength));
}

export function expectProblem(response: Reply, base: string, code: string, validate: ReturnType<typeof openApiValidator>) {
  const { status, title } = PROBLEMS[code]!;
  expect(response.status).toBe(status);
  expectMediaType(response.headers, 'application/problem+json');
  expectCacheControl(response.headers, 'no-store');
  const body = response.json();
  validate.schema('Problem', body);
  expect(body).toMatchObject({ type: `${base}/problems/${code}`, title, status, code });
  expect(typeof body.detail).toBe('string');
  expect(typeof body.resolution).toBe('string');
  // Nothing internal in a body: no stack trace, no file path.
  expect(response.text()).not.toMatch(/\bat \S+ \(|\.ts:\d+|\/work\/|node_modules|file:\/\//);
  return body;
}

/** Runs `steps` until all the answers it returns fall in one rate-limit window (a window may end mid-way). */
export async function inOneWindow<T extends Reply[]>(steps: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const replies = await steps();
    const windows = new Set(replies.map((reply) => reply.headers['x-ratelimit-reset']));
    if (windows.size === 1 || attempt === 3) return replies;
  }
}
