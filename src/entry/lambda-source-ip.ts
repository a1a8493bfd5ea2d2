/**
 * @module The client's address in an AWS Lambda event, from what the platform sets, never from what
 * a client may send: function URLs and HTTP APIs (payload 2.0) `requestContext.http.sourceIp`, REST
 * APIs (payload 1.0) `requestContext.identity.sourceIp`; behind an Application Load Balancer, which
 * has no such field, the last `X-Forwarded-For` entry: the one the balancer appended itself.
 */

export interface LambdaEvent {
  requestContext?: { elb?: unknown; http?: { sourceIp?: string }; identity?: { sourceIp?: string } };
  headers?: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
}

export function sourceIp(event: LambdaEvent): string | undefined {
  const context = event.requestContext;
  // A malformed event's context may be anything (the stand-in of lambda-event.ts asks too).
  if (!context || typeof context !== 'object') return undefined;
  if (!('elb' in context)) {
    const ip = context.http?.sourceIp ?? context.identity?.sourceIp;
    return typeof ip === 'string' ? ip : undefined;
  }
  // With multi-value headers turned on, the balancer sends only `multiValueHeaders`.
  const forwarded = headerValues(event.multiValueHeaders ?? event.headers).join(',');
  return forwarded
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .at(-1);
}

/**
 * The X-Forwarded-For values of a header map, whatever the case of its names. A malformed event's
 * value may be anything: only text is read as addresses.
 */
function headerValues(headers: Record<string, string | string[] | undefined> | null | undefined): string[] {
  const [, value] = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'x-forwarded-for') ?? [];
  return [value].flat().filter((entry) => typeof entry === 'string');
}
