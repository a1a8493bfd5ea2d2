/**
 * @module AWS Lambda: `handler(event, context)` for function URLs, API Gateway HTTP (v2) and REST
 * (v1) APIs and Application Load Balancers, through Hono's adapter (`hono/aws-lambda`), which turns
 * each event into a Request and the Response back into the result Lambda expects. Everything is
 * checked in Lambda's init phase (src/startup/platform.ts); PUBLIC_BASE_URL is required here.
 */
import { handle } from 'hono/aws-lambda';
import { LAMBDA, platformHandler } from '../startup/platform.ts';
import { sourceIp, type LambdaEvent } from './lambda-source-ip.ts';

const serve = await platformHandler(process.env, LAMBDA);

/** The Lambda handler: `index.handler` in the function's configuration. */
export const handler = handle({
  fetch: (request: Request, { event }: { event: LambdaEvent }) => serve(request, { clientAddress: sourceIp(event) }),
} as unknown as Parameters<typeof handle>[0]);
