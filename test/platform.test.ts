import { describe, expect, it } from 'vitest';
import { NETLIFY, platformHandler, VERCEL } from '../src/platform.ts';
import { StartupError } from '../src/startup-error.ts';

const quiet = { ACCESS_LOG: 'off' };

describe("the platforms' deployment URLs", () => {
  it.each([
    [
      { VERCEL_ENV: 'production', VERCEL_PROJECT_PRODUCTION_URL: 'api.example.com', VERCEL_URL: 'app-k3j2.vercel.app' },
      'https://api.example.com',
    ],
    [{ VERCEL_ENV: 'production', VERCEL_URL: 'app-k3j2.vercel.app' }, 'https://app-k3j2.vercel.app'],
    [
      { VERCEL_ENV: 'preview', VERCEL_PROJECT_PRODUCTION_URL: 'api.example.com', VERCEL_URL: 'app-git-x.vercel.app' },
      'https://app-git-x.vercel.app',
    ],
    // `vercel dev` serves plain HTTP; linked it says `development`, unlinked nothing.
    [{ VERCEL_ENV: 'development', VERCEL_URL: 'localhost:3000' }, 'http://localhost:3000'],
    [{ VERCEL_URL: '127.0.0.1:3000' }, 'http://127.0.0.1:3000'],
    [{}, undefined],
  ])('Vercel: %o gives %s', (env, url) => {
    expect(VERCEL.deploymentUrl(env)).toBe(url);
  });

  it.each([
    [
      { CONTEXT: 'production', URL: 'https://api.example.com', DEPLOY_PRIME_URL: 'https://main--site.netlify.app' },
      'https://api.example.com',
    ],
    [
      { CONTEXT: 'deploy-preview', URL: 'https://api.example.com', DEPLOY_PRIME_URL: 'https://deploy-preview-7--site.netlify.app' },
      'https://deploy-preview-7--site.netlify.app',
    ],
    [
      { CONTEXT: 'branch-deploy', URL: 'https://api.example.com', DEPLOY_PRIME_URL: 'https://staging--site.netlify.app' },
      'https://staging--site.netlify.app',
    ],
    // `netlify dev` sets URL to its own address and DEPLOY_PRIME_URL to a placeholder.
    [{ CONTEXT: 'dev', URL: 'http://localhost:8888', DEPLOY_PRIME_URL: 'https://master--site-name.netlify.app' }, 'http://localhost:8888'],
    [{}, undefined],
  ])('Netlify: %o gives %s', (env, url) => {
    expect(NETLIFY.deploymentUrl(env)).toBe(url);
  });
});

describe('platformHandler', () => {
  it("takes {base} from the deployment URL, never from the request's Host", async () => {
    const handler = await platformHandler({ ...quiet, VERCEL_ENV: 'preview', VERCEL_URL: 'app-git-x.vercel.app' }, VERCEL);
    const response = await handler(new Request('http://evil.example/api/v1', { headers: { Host: 'evil.example' } }));
    const body = (await response.json()) as { links: Record<string, string> };
    expect(Object.values(body.links).every((link) => link.startsWith('https://app-git-x.vercel.app/'))).toBe(true);
    await handler.close();
  });

  it("prefers PUBLIC_BASE_URL to the platform's URL", async () => {
    const handler = await platformHandler(
      { ...quiet, PUBLIC_BASE_URL: 'https://api.example.com/', URL: 'https://site.netlify.app' },
      NETLIFY,
    );
    const body = (await (await handler(new Request('http://localhost/'))).json()) as { links: Record<string, string> };
    expect(body.links.api).toBe('https://api.example.com/api/v1');
    await handler.close();
  });

  it("refuses to load without any base URL, naming PUBLIC_BASE_URL and the platform's variables, with no stack trace", async () => {
    const refusal = await platformHandler(quiet, VERCEL).catch((error: Error) => error);
    expect(refusal).toBeInstanceOf(StartupError);
    expect((refusal as Error).message).toMatch(/PUBLIC_BASE_URL is unset and so are VERCEL_PROJECT_PRODUCTION_URL and VERCEL_URL/);
    expect((refusal as Error).stack).toBe((refusal as Error).message);
  });

  it('refuses a bad variable as the other entries do', async () => {
    const refusal = await platformHandler({ URL: 'https://site.netlify.app', RATE_LIMIT_QUOTA: 'lots' }, NETLIFY).catch(
      (error: Error) => error,
    );
    expect(refusal).toBeInstanceOf(StartupError);
    expect((refusal as Error).message).toContain('RATE_LIMIT_QUOTA="lots"');
    expect((refusal as Error).stack).not.toMatch(/\n\s+at /);
  });

  it('reads FACTS_FILE, refusing a missing one by name', async () => {
    const refusal = await platformHandler({ URL: 'https://site.netlify.app', FACTS_FILE: '/nonexistent/facts.json' }, NETLIFY).catch(
      (error: Error) => error,
    );
    expect((refusal as Error).message).toMatch(/FACTS_FILE="\/nonexistent\/facts.json" cannot be read/);
  });
});
