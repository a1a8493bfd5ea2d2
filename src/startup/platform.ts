/**
 * @module The start-up the serverless entries share (Vercel, Netlify, AWS Lambda, Deno Deploy): the
 * configuration validated and the facts read as the module loads (bundled, or FACTS_FILE in the
 * deployment); `{base}` from PUBLIC_BASE_URL or the platform's own deployment URL, never a request's
 * `Host`; one handler per instance; a refusal printed as one block, and the instance stopped.
 */
import { readFile } from 'node:fs/promises';
import { loadConfig, STORE_VARIABLES } from './config.ts';
import { withStoreOpened } from '../ratelimit/index.ts';
import { createHandler, type Handler } from '../handler.ts';
import { readFacts } from '../facts/read.ts';
import { startLine } from './start.ts';
import type { Product } from '../facts/schema.ts';
import { baseUrlProblem } from '../contract/base-url.ts';
import { invalidConfiguration, settingLine, StartupError } from '../util/startup-error.ts';

type Env = Record<string, string | undefined>;

export interface Platform {
  /** The deployment's own URL from the platform's variables, used when PUBLIC_BASE_URL is unset. */
  deploymentUrl(env: Env): string | Promise<string> | undefined;
  /** The platform variable `deploymentUrl` reads, named when the URL it gives is refused. */
  deploymentVariable?(env: Env): string;
  /** What follows "PUBLIC_BASE_URL is unset" when neither gives a URL: the variables read, or why none can be. */
  unset: string;
  /** Called once the handler serves these facts at `{base}` (a platform that announces itself prints its start line). */
  started?(facts: Product, base: string): void;
}

/**
 * Vercel: production at the project's production domain, previews at their own URL; `vercel dev`
 * (no VERCEL_ENV, or `development`) on plain HTTP.
 */
const vercelVariable = ({ VERCEL_ENV, VERCEL_PROJECT_PRODUCTION_URL }: Env) =>
  VERCEL_ENV === 'production' && VERCEL_PROJECT_PRODUCTION_URL ? 'VERCEL_PROJECT_PRODUCTION_URL' : 'VERCEL_URL';

export const VERCEL: Platform = {
  deploymentUrl: (env) => {
    const host = env[vercelVariable(env)];
    const scheme = env.VERCEL_ENV === 'production' || env.VERCEL_ENV === 'preview' ? 'https' : 'http';
    return host && `${scheme}://${host}`;
  },
  deploymentVariable: vercelVariable,
  unset:
    ' and so are VERCEL_PROJECT_PRODUCTION_URL and VERCEL_URL (set by Vercel): ' +
    'set PUBLIC_BASE_URL to the URL clients reach the service at, such as https://api.example.com.',
};

/**
 * Netlify: URL is the site's main address (its custom domain when set; `netlify dev`'s own address
 * locally), DEPLOY_PRIME_URL a Deploy Preview's or branch deploy's.
 */
const netlifyVariable = ({ CONTEXT, DEPLOY_PRIME_URL }: Env) =>
  (CONTEXT === 'deploy-preview' || CONTEXT === 'branch-deploy') && DEPLOY_PRIME_URL ? 'DEPLOY_PRIME_URL' : 'URL';

export const NETLIFY: Platform = {
  deploymentUrl: (env) => env[netlifyVariable(env)] || undefined,
  deploymentVariable: netlifyVariable,
  unset:
    ' and so are URL and DEPLOY_PRIME_URL (set by Netlify): ' +
    'set PUBLIC_BASE_URL to the URL clients reach the service at, such as https://api.example.com.',
};

/** AWS Lambda: no variable names the URL clients use (a function URL, an API stage, a custom domain). */
export const LAMBDA: Platform = {
  deploymentUrl: () => undefined,
  unset:
    ': on AWS Lambda it is required, as nothing else names the URL clients use; ' +
    'set it to the function URL, the API stage URL or your custom domain, such as https://api.example.com.',
};

/**
 * Deno Deploy (DENO_DEPLOYMENT_ID is set there): an app's URLs (preview, production, custom domains)
 * are not one variable. Elsewhere (`deno serve`) `{base}` is the address it listens on, once known.
 */
export const denoDeploy = (listening: Promise<string>): Platform => ({
  deploymentUrl: ({ DENO_DEPLOYMENT_ID }) => (DENO_DEPLOYMENT_ID ? undefined : listening),
  started: (facts, base) => void listening.then((url) => console.log(startLine(facts, url, base))),
  unset:
    ': on Deno Deploy it is required, as no one variable names the URL clients use; ' +
    "set it to your app's production URL or custom domain, such as https://api.example.com.",
});

/** Cloudflare Workers (src/entry/workers.ts): no binding names the URL clients use (workers.dev, routes, custom domains). */
export const WORKERS: Platform = {
  deploymentUrl: () => undefined,
  unset:
    ': on Workers it is required, as no binding names the URL clients use; ' +
    'set it in wrangler.jsonc "vars" to your workers.dev URL or custom domain, such as https://api.example.com.',
};

/** The refusal when neither PUBLIC_BASE_URL nor the platform's variables give `{base}`. */
export const baseUrlUnset = (platform: Platform) => new StartupError(`Invalid configuration:\n  PUBLIC_BASE_URL is unset${platform.unset}`);

/**
 * The URL a platform variable gives, by the base-URL rule (contract/base-url.ts), refused naming that
 * variable: PUBLIC_BASE_URL, which its user did not set, is named only as the way to override it.
 */
function checkDeploymentUrl(url: string, variable: string | undefined): void {
  const problem = variable === undefined ? undefined : baseUrlProblem(url);
  if (problem) {
    throw invalidConfiguration(
      settingLine(
        variable!,
        url,
        `${problem} (the public base URL ${variable} gives while PUBLIC_BASE_URL is unset; set PUBLIC_BASE_URL to override it)`,
      ),
    );
  }
}

/**
 * The handler of one instance. A refusal is printed with console.error and the process exits 1: a thrown
 * init error would reach the logs as the runtime formats it (one JSON line on Lambda, where Vercel's and
 * Netlify's functions run too; a trace under Deno), not as the block.
 */
export async function platformHandler(env: Env, platform: Platform): Promise<Handler> {
  try {
    const publicBaseUrl = env.PUBLIC_BASE_URL || platform.deploymentUrl(env);
    if (!publicBaseUrl) throw baseUrlUnset(platform);
    if (!env.PUBLIC_BASE_URL && typeof publicBaseUrl === 'string') checkDeploymentUrl(publicBaseUrl, platform.deploymentVariable?.(env));
    const options = loadConfig({ ...env, PUBLIC_BASE_URL: typeof publicBaseUrl === 'string' ? publicBaseUrl : undefined });
    // A store this runtime cannot use, or a table that does not exist, refused naming its variable.
    // Its start-up call is under way while the facts are read; a refused facts file is still named first.
    const opening = withStoreOpened(options.rateLimit, STORE_VARIABLES);
    opening.catch(() => {});
    const facts = await readFacts(options.factsFile, (path) => readFile(path, 'utf8'));
    const rateLimit = await opening;
    const handler = await createHandler({ ...options, rateLimit, publicBaseUrl: await publicBaseUrl, facts });
    platform.started?.(facts, await publicBaseUrl);
    return handler;
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
