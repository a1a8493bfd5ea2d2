/**
 * @module AWS Lambda: `handler(event, context)` for function URLs, API Gateway HTTP (v2) and REST
 * (v1) APIs and Application Load Balancers, through Hono's adapter (`hono/aws-lambda`), which turns
 * each event into a Request and the Response back into the result Lambda expects; each event is
 * checked before it (lambda-event.ts), so a malformed one gets a problem too. Everything is checked
 * in Lambda's init phase (src/startup/platform.ts); PUBLIC_BASE_URL is required here.
 */
import { LAMBDA, platformHandler } from '../startup/platform.ts';
import { createLambdaHandler } from './lambda-event.ts';

const serve = await platformHandler(process.env, LAMBDA);

/** The Lambda handler: `index.handler` in the function's configuration. */
export const handler = createLambdaHandler(serve);
