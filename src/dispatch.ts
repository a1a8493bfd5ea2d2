/**
 * @module The itty-router that dispatches what the documents map does not answer: health, MCP,
 * preflights and the 405 with `Allow` on every known path. Registered from the route table, one
 * exact path at a time; any other path is the 404 without a pattern scan (itty's patterns also
 * admit a trailing slash, and the contract's paths are exact).
 */
import { Router } from 'itty-router';
import type { HeaderRecord } from './headers.ts';
import { allowOf, pathsOf, ROUTES, type Route } from './routes.ts';

/** `fixed` are the headers every answer on the path carries (made once); `limits` this request's rate-limit fields. */
type Answer = (request: Request, fixed: HeaderRecord, limits: HeaderRecord) => Response | Promise<Response>;

export interface Answers {
  health: Answer;
  mcp: Answer;
  preflight: (request: Request, fixed: HeaderRecord, limits: HeaderRecord, route: Route) => Response | Promise<Response>;
  methodNotAllowed: (request: Request, fixed: HeaderRecord, limits: HeaderRecord, allow: string) => Response;
  notFound: Answer;
}

export function createDispatcher(answers: Answers): (request: Request, path: string, fixed: HeaderRecord, limits: HeaderRecord) => Promise<Response> {
  const router = Router<Request, [HeaderRecord, HeaderRecord]>();
  const paths = ROUTES.flatMap((route) => pathsOf(route).map(({ path }) => ({ route, path })));
  // itty tries routes in order: every method's own routes first, so a POST to /mcp is not tested
  // against each path's catch-all; a path's 405 catch-all still comes after its own methods.
  for (const { route, path } of paths) {
    // GET and HEAD of a document are answered before dispatch, from the documents map.
    if (route.answer === 'health') router.get(path, answers.health).head(path, answers.health);
    if (route.answer === 'mcp') router.post(path, answers.mcp);
    router.options(path, (request, fixed, limits) => answers.preflight(request, fixed, limits, route));
  }
  for (const { route, path } of paths) {
    const allow = allowOf(route);
    router.all(path, (request, fixed, limits) => answers.methodNotAllowed(request, fixed, limits, allow));
  }
  const known = new Set(paths.map(({ path }) => path));
  return async (request, path, fixed, limits) => (known.has(path) ? router.fetch(request, fixed, limits) : answers.notFound(request, fixed, limits));
}
