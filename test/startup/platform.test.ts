import { describe, expect, it } from 'vitest';
import { afterEach, vi } from 'vitest';
import { denoDeploy, LAMBDA, NETLIFY, type Platform, platformHandler, VERCEL, WORKERS } from '../../src/startup/platform.ts';

const quiet = { ACCESS_LOG: 'off' };

afterEach(() => {
  vi.restoreAllMocks();
});

/** What a refused start-up prints and the code it exits with (the exit stopped here, to be observed). */
async function refusal(env: Record<string, string>, platform: Platform): Promise<{ code: unknown; printed: string }> {
  const printed: unknown[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args) => void printed.push(...args));
  let code: unknown;
  vi.spyOn(process, 'exit').mockImplementation(((exitCode) => {
    code = exitCode;
    throw new Error('exited');
  }) as typeof process.exit);
  await expect(platformHandler(env, platform)).rejects.toThrow('exited');
  expect(printed).toHaveLength(1);
  return { code, printed: String(printed[0]) };
}

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

  it.each([
    [VERCEL, {}, 'PUBLIC_BASE_URL is unset and so are VERCEL_PROJECT_PRODUCTION_URL and VERCEL_URL (set by Vercel): set PUBLIC_BASE_URL'],
    [NETLIFY, {}, 'PUBLIC_BASE_URL is unset and so are URL and DEPLOY_PRIME_URL (set by Netlify): set PUBLIC_BASE_URL'],
    [LAMBDA, {}, 'PUBLIC_BASE_URL is unset: on AWS Lambda it is required'],
    [WORKERS, {}, 'PUBLIC_BASE_URL is unset: on Workers it is required, as no binding names the URL clients use; set it in wrangler.jsonc'],
    [denoDeploy(new Promise(() => {})), { DENO_DEPLOYMENT_ID: 'abc123' }, 'PUBLIC_BASE_URL is unset: on Deno Deploy it is required'],
  ])('refuses to load without a base URL, naming the variables of the platform: %#', async (platform, env, message) => {
    const { code, printed } = await refusal({ ...quiet, ...env }, platform);
    expect(code).toBe(1);
    expect(printed).toMatch(/^Invalid configuration:\n {2}PUBLIC_BASE_URL is unset/);
    expect(printed).toContain(message);
  });

  it('refuses a bad variable as the other entries do: the block alone, exit 1', async () => {
    const { code, printed } = await refusal({ URL: 'https://site.netlify.app', RATE_LIMIT_QUOTA: 'lots' }, NETLIFY);
    expect(code).toBe(1);
    expect(printed).toMatch(/^Invalid configuration:\n {2}RATE_LIMIT_QUOTA="lots"/);
    expect(printed).not.toMatch(/\n\s+at /);
  });

  it.each([
    [LAMBDA, { PUBLIC_BASE_URL: 'https://user:secret@api.example.com' }, /must not carry user information/],
    [VERCEL, { PUBLIC_BASE_URL: ' https://api.example.com', VERCEL_URL: 'app.vercel.app' }, /must not begin or end with white space/],
    [NETLIFY, { PUBLIC_BASE_URL: 'https://api.example.com/#docs' }, /must not carry a fragment/],
    [WORKERS, { PUBLIC_BASE_URL: 'https://api.example.com/?v=1' }, /must not carry a query/],
    [
      LAMBDA,
      { PUBLIC_BASE_URL: 'https://api.example.com', CONTENT_SIGNAL: 'train=yes' },
      /CONTENT_SIGNAL="train=yes": must be comma-separated/,
    ],
  ])('refuses a setting by the rule every way in shares, naming the variable: %#', async (platform, env, words) => {
    const { code, printed } = await refusal({ ...quiet, ...env }, platform);
    expect(code).toBe(1);
    expect(printed).toMatch(/^Invalid configuration:\n {2}(PUBLIC_BASE_URL|CONTENT_SIGNAL)=/);
    expect(printed).toMatch(words);
    expect(printed).not.toContain('secret');
  });

  it.each([
    [VERCEL, { VERCEL_ENV: 'preview', VERCEL_URL: 'user:secret@app-git-x.vercel.app' }, 'VERCEL_URL', /must not carry user information/],
    [
      VERCEL,
      { VERCEL_ENV: 'production', VERCEL_PROJECT_PRODUCTION_URL: 'api.example.com/?v=1', VERCEL_URL: 'app.vercel.app' },
      'VERCEL_PROJECT_PRODUCTION_URL',
      /must not carry a query/,
    ],
    [NETLIFY, { CONTEXT: 'production', URL: 'https://site.netlify.app/#top' }, 'URL', /must not carry a fragment/],
    [
      NETLIFY,
      { CONTEXT: 'deploy-preview', URL: 'https://site.netlify.app', DEPLOY_PRIME_URL: 'ftp://preview.netlify.app' },
      'DEPLOY_PRIME_URL',
      /must use http or https/,
    ],
  ])("refuses a platform's bad deployment URL naming its variable, not PUBLIC_BASE_URL: %#", async (platform, env, variable, words) => {
    const { code, printed } = await refusal({ ...quiet, ...env }, platform);
    expect(code).toBe(1);
    expect(printed).toMatch(new RegExp(`^Invalid configuration:\n {2}${variable}="`));
    expect(printed).toMatch(words);
    expect(printed).toContain('set PUBLIC_BASE_URL to override it');
    expect(printed).not.toContain('secret');
  });

  it("checks the base URL Deno gives it as createHandler's own", async () => {
    const { code, printed } = await refusal(quiet, denoDeploy(Promise.resolve('http://user:pw@127.0.0.1:4507')));
    expect(code).toBe(1);
    expect(printed).toMatch(
      /^Invalid configuration:\n {2}publicBaseUrl="http:\/\/\*\*\*@127\.0\.0\.1:4507": must not carry user information/,
    );
  });

  it('reads FACTS_FILE, refusing a missing one by name', async () => {
    const { printed } = await refusal({ PUBLIC_BASE_URL: 'https://api.example.com', FACTS_FILE: '/nonexistent/facts.json' }, LAMBDA);
    expect(printed).toMatch(/FACTS_FILE="\/nonexistent\/facts.json" cannot be read/);
  });

  it('takes {base} locally on Deno from the listening address it is given', async () => {
    const handler = await platformHandler(quiet, denoDeploy(Promise.resolve('http://127.0.0.1:4507')));
    const body = (await (await handler(new Request('http://evil.example/'))).json()) as { links: Record<string, string> };
    expect(body.links.api).toBe('http://127.0.0.1:4507/api/v1');
    await handler.close();
  });
});
