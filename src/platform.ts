/**
 * @module What the serverless platform entries share (Vercel, Netlify): the configuration validated
 * and the facts read as the module loads, so a refusal fails the first invocation with the one-block
 * message the other entries print; `{base}` from PUBLIC_BASE_URL or the platform's own deployment
 * URL, never a request's `Host`; one handler per instance.
 */
import { readFile } from 'node:fs/promises';
import { loadConfig } from './config.ts';
import { checkFacts } from './facts.ts';
import { createHandler, type Handler } from './handler.ts';
import sampleFacts from './sample-facts.json' with { type: 'json' };
import { loadFacts } from './start.ts';
import { StartupError } from './startup-error.ts';

export interface Platform {
  /** The deployment's own URL from the platform's variables, used when PUBLIC_BASE_URL is unset. */
  deploymentUrl(env: Env): string | undefined;
  /** The variables `deploymentUrl` reads, named when neither gives a URL. */
  variables: string;
}

type Env = Record<string, string | undefined>;

/**
 * Vercel: production at the project's production domain, previews at their own URL; `vercel dev`
 * (no VERCEL_ENV, or `development`) on plain HTTP.
 */
export const VERCEL: Platform = {
  deploymentUrl: ({ VERCEL_ENV, VERCEL_PROJECT_PRODUCTION_URL, VERCEL_URL }) => {
    const host = VERCEL_ENV === 'production' ? VERCEL_PROJECT_PRODUCTION_URL || VERCEL_URL : VERCEL_URL;
    const scheme = VERCEL_ENV === 'production' || VERCEL_ENV === 'preview' ? 'https' : 'http';
    return host && `${scheme}://${host}`;
  },
  variables: 'VERCEL_PROJECT_PRODUCTION_URL and VERCEL_URL (set by Vercel)',
};

/**
 * Netlify: URL is the site's main address (its custom domain when set; `netlify dev`'s own address
 * locally), DEPLOY_PRIME_URL a Deploy Preview's or branch deploy's.
 */
export const NETLIFY: Platform = {
  deploymentUrl: ({ CONTEXT, URL, DEPLOY_PRIME_URL }) =>
    CONTEXT === 'deploy-preview' || CONTEXT === 'branch-deploy' ? DEPLOY_PRIME_URL || URL : URL,
  variables: 'URL and DEPLOY_PRIME_URL (set by Netlify)',
};

export async function platformHandler(env: Env, platform: Platform): Promise<Handler> {
  try {
    const publicBaseUrl = env.PUBLIC_BASE_URL || platform.deploymentUrl(env);
    if (!publicBaseUrl) {
      throw new StartupError(
        `Invalid configuration:\n  PUBLIC_BASE_URL is unset and so are ${platform.variables}: ` +
          'set PUBLIC_BASE_URL to the URL clients reach the service at, such as https://api.example.com.',
      );
    }
    const options = loadConfig({ ...env, PUBLIC_BASE_URL: publicBaseUrl });
    const facts = options.factsFile
      ? await loadFacts(options.factsFile, (path) => readFile(path, 'utf8'))
      : checkFacts('(shipped sample)', sampleFacts);
    return await createHandler({ ...options, publicBaseUrl, facts });
  } catch (error) {
    // The platform logs what the module load threw: the message alone, as the other entries print it.
    if (error instanceof StartupError) error.stack = error.message;
    throw error;
  }
}
