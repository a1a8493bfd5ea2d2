/**
 * @module Serves the handler as a Netlify Function: a default `(request, context)` export and a
 * `config` whose `path` lists exactly the served paths, so every other path stays the site's own.
 * Netlify reads `config` from the function file's own text, so deploy/netlify/ writes the list out
 * (generated from the same route table). The client is `context.ip`, the address Netlify's edge saw.
 */
import { NETLIFY, platformHandler } from '../startup/platform.ts';
import { servedPaths } from '../routes.ts';

const handler = await platformHandler(process.env, NETLIFY);

/** The part of Netlify's `Context` the service reads. */
export interface NetlifyContext {
  ip: string;
}

/** Called without its context (another function calling it, a test), it serves with no client address. */
export default (request: Request, context?: NetlifyContext): Promise<Response> =>
  handler(request, { clientAddress: typeof context?.ip === 'string' ? context.ip : undefined });

export const config = { path: servedPaths() };
