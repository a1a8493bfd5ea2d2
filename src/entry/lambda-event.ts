/**
 * @module What a Lambda event must be before Hono's adapter (`hono/aws-lambda`) maps it to a Request:
 * checked and normalised here, so that every event, malformed ones included, gets the contract's
 * answer. An event the adapter could not map (not an object, `null`, a bad header, a body flagged
 * base64 that is not) is answered by the handler as the 400 `bad_request` problem, with every header
 * any answer carries, through a stand-in event of the same shape: its path when readable, GET, no
 * body. A method no Request can carry (TRACE, CONNECT, TRACK) is the 405 problem. A GET or HEAD with a
 * body (function URLs and HTTP APIs pass one on) is served without it, as Node's server does.
 */
import { handle } from 'hono/aws-lambda';
import type { RequestInfo } from '../telemetry/access-log.ts';
import { sourceIp, type LambdaEvent } from './lambda-source-ip.ts';

/** An event as received: anything. */
type Json = Record<string, unknown>;
type Shape = 'v2' | 'v1' | 'alb' | 'lattice';
type Malformed = NonNullable<RequestInfo['malformed']>;

/** The event to hand to the adapter, and what was wrong with the one received (then `event` stands in for it). */
interface CheckedEvent {
  event: Json;
  malformed?: Malformed;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const has = (object: Json, key: string) => Object.hasOwn(object, key);
/** RFC 9110 section 5.6.2: a method and a header name are tokens. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The methods the Fetch standard forbids in a Request (no runtime passes them on to an app). */
const FORBIDDEN_METHODS = /^(CONNECT|TRACE|TRACK)$/i;
/** RFC 9110 section 5.5: CR, LF and NUL never appear in a field value. */
const BAD_VALUE = /[\r\n\0]/;
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule refuses control characters, so it names them.
const PATH = /^\/[^\0-\x1f\x7f#]*$/;

/** The shape Hono's adapter sees in an object event (its own order of tests). */
function shapeOf(event: Json): Shape {
  const context = isObject(event.requestContext) ? event.requestContext : {};
  if (has(context, 'elb')) return 'alb';
  if (has(event, 'rawPath') && has(context, 'http')) return 'v2';
  if (has(context, 'serviceArn')) return 'lattice';
  return 'v1';
}

const bad = (detail: string): Malformed => ({ code: 'bad_request', detail });
/** No lone surrogate (which encodeURIComponent, and so the adapter, throws on). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (text: string) => !LONE_SURROGATE.test(text);

/** A map of names to strings (or null, skipped), or to lists of strings when `lists`. */
function checkMap(value: unknown, field: string, { lists, headers }: { lists: boolean; headers: boolean }): Malformed | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return bad(`The event's ${field} is not an object.`);
  for (const [name, entry] of Object.entries(value)) {
    if (headers && !TOKEN.test(name)) return bad(`The event's ${field} has an invalid header name.`);
    if (!wellFormed(name)) return bad(`The event's ${field} has a name that is not well-formed Unicode.`);
    if (entry === undefined || entry === null) continue;
    const items = lists ? entry : [entry];
    if (!Array.isArray(items)) return bad(`The event's ${field} has a value that is not a list.`);
    for (const item of items) {
      if (typeof item !== 'string') return bad(`The event's ${field} has a value that is not a string.`);
      if (!wellFormed(item)) return bad(`The event's ${field} has a value that is not well-formed Unicode.`);
      if (headers && BAD_VALUE.test(item)) return bad(`The event's ${field} has a value with CR, LF or NUL.`);
    }
  }
  return undefined;
}

/** The request line's parts by shape: the method and the path. */
function requestLine(event: Json, shape: Shape): { method: unknown; path: unknown } {
  if (shape === 'v2') {
    const http = (event.requestContext as Json).http;
    return { method: isObject(http) ? http.method : undefined, path: event.rawPath };
  }
  return { method: shape === 'lattice' ? event.method : event.httpMethod, path: event.path };
}

/** Why Hono's adapter would refuse or throw on this object event, or undefined when it maps it. */
function problemOf(event: Json, shape: Shape): Malformed | undefined {
  if (event.requestContext !== undefined && event.requestContext !== null && !isObject(event.requestContext))
    return bad("The event's requestContext is not an object.");
  if (shape === 'v2' && !isObject((event.requestContext as Json).http)) return bad("The event's requestContext.http is not an object.");
  const { method, path } = requestLine(event, shape);
  if (typeof method !== 'string' || !TOKEN.test(method)) return bad('The event carries no valid HTTP method.');
  if (typeof path !== 'string' || !PATH.test(path) || !wellFormed(path)) return bad('The event carries no valid path.');
  if (shape === 'v2' && event.rawQueryString !== undefined && event.rawQueryString !== null) {
    const query = event.rawQueryString;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule refuses control characters, so it names them.
    if (typeof query !== 'string' || /[\0-\x1f\x7f#]/.test(query) || !wellFormed(query))
      return bad("The event's rawQueryString is not a valid query.");
  }
  const headerLists = shape === 'lattice';
  return (
    (shape === 'v2' ? undefined : checkMap(event.queryStringParameters, 'queryStringParameters', { lists: false, headers: false })) ??
    (shape === 'v2'
      ? undefined
      : checkMap(event.multiValueQueryStringParameters, 'multiValueQueryStringParameters', { lists: true, headers: false })) ??
    checkMap(event.headers, 'headers', { lists: headerLists, headers: true }) ??
    (shape === 'lattice' ? undefined : checkMap(event.multiValueHeaders, 'multiValueHeaders', { lists: true, headers: true })) ??
    checkCookies(event, shape) ??
    checkBody(event)
  );
}

function checkCookies(event: Json, shape: Shape): Malformed | undefined {
  if (shape !== 'v2' || event.cookies === undefined || event.cookies === null) return undefined;
  const { cookies } = event;
  // Joined into one Cookie header as they are: a header value is bytes (code units up to 0xFF).
  if (
    !Array.isArray(cookies) ||
    cookies.some((cookie) => typeof cookie !== 'string' || BAD_VALUE.test(cookie) || /[^\0-\xff]/.test(cookie))
  )
    return bad("The event's cookies are not a list of valid cookie strings.");
  return undefined;
}

function checkBody(event: Json): Malformed | undefined {
  const { body } = event;
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body !== 'string') return bad("The event's body is not a string.");
  // The adapter decodes whenever the flag is truthy.
  if (event.isBase64Encoded) {
    try {
      atob(body);
    } catch {
      return bad("The event's body is flagged isBase64Encoded but is not base64.");
    }
  } else if (!wellFormed(body)) return bad("The event's body is not well-formed Unicode.");
  return undefined;
}

/** A header's value in an event's header map, whatever the case of its name (the first of a list). */
function headerOf(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const value = Array.isArray(found) ? found[0] : found;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The event as the adapter gets it: the URL's host from a valid domain name or Host (the service
 * never reads it: `{base}` is configured), and a GET's or HEAD's body dropped.
 */
function normalised(event: Json, shape: Shape): Json {
  const context = isObject(event.requestContext) ? event.requestContext : {};
  const named = [context.domainName, headerOf(event.headers, 'host'), headerOf(event.multiValueHeaders, 'host')];
  const domainName = named.find((name): name is string => typeof name === 'string' && HOST.test(name)) ?? 'localhost';
  const copy: Json = { ...event, requestContext: { ...context, domainName } };
  const { method } = requestLine(event, shape);
  if (/^(GET|HEAD)$/i.test(method as string)) Object.assign(copy, { body: null, isBase64Encoded: false });
  return copy;
}

/**
 * An event of the same shape as `received` (so the answer takes the form its platform expects) for
 * GET of its path when readable, else `/`, from the same client: one the adapter always maps.
 */
function standIn(received: unknown): Json {
  const event = isObject(received) ? received : {};
  const shape = isObject(received) ? shapeOf(event) : 'v2';
  const { path } = isObject(received) ? requestLine(event, shape) : { path: undefined };
  const readable = typeof path === 'string' && PATH.test(path) && wellFormed(path) ? path : '/';
  const client = sourceIp(event as LambdaEvent);
  const multi = isObject(event.multiValueHeaders);
  if (shape === 'v2' || shape === 'lattice') {
    return {
      version: '2.0',
      rawPath: readable,
      rawQueryString: '',
      headers: {},
      isBase64Encoded: false,
      requestContext: { domainName: 'localhost', http: { method: 'GET', path: readable, ...(client ? { sourceIp: client } : {}) } },
    };
  }
  const forwarded = shape === 'alb' && client ? { 'x-forwarded-for': client } : {};
  return {
    httpMethod: 'GET',
    path: readable,
    headers: multi ? undefined : forwarded,
    ...(multi ? { multiValueHeaders: Object.fromEntries(Object.entries(forwarded).map(([name, value]) => [name, [value]])) } : {}),
    isBase64Encoded: false,
    requestContext:
      shape === 'alb'
        ? { elb: isObject(event.requestContext) ? event.requestContext.elb : {}, domainName: 'localhost' }
        : { domainName: 'localhost', ...(client ? { identity: { sourceIp: client } } : {}) },
  };
}

/** Checks an event: the one to hand to the adapter, and what was wrong when it stands in for the one received. */
export function checkEvent(received: unknown): CheckedEvent {
  if (!isObject(received)) {
    const kind = received === null ? 'null' : Array.isArray(received) ? 'an array' : `a ${typeof received}`;
    return { event: standIn(received), malformed: bad(`The event is ${kind}, not an HTTP request event.`) };
  }
  const shape = shapeOf(received);
  const malformed = problemOf(received, shape);
  if (malformed) return { event: standIn(received), malformed };
  const { method } = requestLine(received, shape);
  if (FORBIDDEN_METHODS.test(method as string)) {
    return { event: standIn(received), malformed: { code: 'method_not_allowed', detail: `The method ${method} is not served.` } };
  }
  return { event: normalised(received, shape) };
}

/** What the handler gets of a request. */
type Serve = (request: Request, info: RequestInfo) => Promise<Response>;
/** The result Lambda expects (the adapter's). */
export type LambdaResult = Awaited<ReturnType<ReturnType<typeof handle>>>;

/**
 * The Lambda handler over `serve`: each event checked, then mapped by Hono's adapter. Should the
 * adapter still refuse an event (it answers plain text itself) or throw, the stand-in is answered.
 */
export function createLambdaHandler(serve: Serve): (event: unknown, context: unknown) => Promise<LambdaResult> {
  /** Events the adapter handed on, and what to answer for a stand-in. */
  const reached = new WeakSet<object>();
  const standingIn = new WeakMap<object, Malformed>();
  const adapter = handle({
    fetch: (request: Request, { event }: { event: LambdaEvent }) => {
      reached.add(event);
      return serve(request, { clientAddress: sourceIp(event), malformed: standingIn.get(event) });
    },
  } as unknown as Parameters<typeof handle>[0]);
  const call = adapter as unknown as (event: Json, context: unknown) => Promise<LambdaResult>;

  const answerStandIn = (received: unknown, context: unknown, malformed: Malformed) => {
    const event = standIn(received);
    standingIn.set(event, malformed);
    return call(event, context);
  };

  return async (received, context) => {
    const { event, malformed } = checkEvent(received);
    if (malformed) return answerStandIn(received, context, malformed);
    try {
      const result = await call(event, context);
      if (reached.has(event)) return result;
    } catch {
      // Answered below, as the adapter's own refusals are.
    }
    return answerStandIn(received, context, bad('The event could not be read as an HTTP request.'));
  };
}
