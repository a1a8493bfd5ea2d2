/**
 * @module Serves the handler as a Vercel Function (Node runtime): `export default { fetch }`, mounted
 * by one catch-all function (deploy/vercel/). The client is `X-Real-IP`, which Vercel's edge sets
 * (a client's own X-Forwarded-For is kept and appended to, so it is never believed).
 */
import { platformHandler, VERCEL } from '../startup/platform.ts';

const handler = await platformHandler(process.env, VERCEL);

export default {
  fetch: (request: Request): Promise<Response> => handler(request, { clientAddress: request.headers.get('x-real-ip') ?? undefined }),
};
