/**
 * @module AWS Lambda: `handler(event, context)` for function URLs, API Gateway HTTP (v2) and REST
 * (v1) APIs and Application Load Balancers, through Hono's adapter (`hono/aws-lambda`), which turns
 * each event into a Request and the Response back into the result Lambda expects.
 *
 * Everything is checked while the module loads (Lambda's init phase): the configuration, the facts
 * (bundled, or FACTS_FILE in the deployment) and PUBLIC_BASE_URL, which is required here: no
 * variable of Lambda's names the URL clients use (a function URL, an API stage, a custom domain),
 * and `{base}` is never taken from a request. A refusal is printed as one block and the init fails.
 */
import { readFile } from 'node:fs/promises';
import { handle } from 'hono/aws-lambda';
import { loadConfig } from '../config.ts';
import { checkFacts } from '../facts.ts';
import { createHandler, type Handler } from '../handler.ts';
import { loadFacts } from '../start.ts';
import { StartupError } from '../startup-error.ts';
import sampleFacts from '../sample-facts.json' with { type: 'json' };
import { sourceIp, type LambdaEvent } from './lambda-source-ip.ts';

async function init(): Promise<Handler> {
  const options = loadConfig(process.env);
  if (!options.publicBaseUrl) {
    throw new StartupError(
      'Invalid configuration:\n  PUBLIC_BASE_URL is unset: on AWS Lambda it is required, as nothing else names the URL clients ' +
        'use; set it to the function URL, the API stage URL or your custom domain, such as https://api.example.com.',
    );
  }
  const facts = options.factsFile
    ? await loadFacts(options.factsFile, (path) => readFile(path, 'utf8'))
    : checkFacts('(bundled sample)', sampleFacts);
  return createHandler({ ...options, publicBaseUrl: options.publicBaseUrl, facts });
}

const serve = await init().catch((error: unknown) => {
  if (!(error instanceof StartupError)) throw error;
  console.error(error.message);
  process.exit(1);
});

/** The Lambda handler: `index.handler` in the function's configuration. */
export const handler = handle({
  fetch: (request: Request, { event }: { event: LambdaEvent }) => serve(request, { clientAddress: sourceIp(event) }),
} as unknown as Parameters<typeof handle>[0]);
