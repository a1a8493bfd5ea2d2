import { describe, expect, it, vi } from 'vitest';
import { isServedPath, servedPaths } from '../../src/routes.ts';
import { drifted, netlifyFunction, vercelJson, VERCEL_FUNCTION } from '../../scripts/deploy-routes.ts';

describe("the platforms' route lists", () => {
  it('are committed as the route table gives them (run `npm run deploy:routes` when this fails)', () => {
    expect(drifted()).toEqual([]);
  });

  it('route exactly the served paths to the service on Vercel, and a new route with them', () => {
    const rewrites = JSON.parse(vercelJson([...servedPaths(), '/a-new-route'])).rewrites as { source: string; destination: string }[];
    expect(rewrites.map((rewrite) => rewrite.source)).toEqual([...servedPaths(), '/a-new-route']);
    expect(new Set(rewrites.map((rewrite) => rewrite.destination))).toEqual(new Set([VERCEL_FUNCTION]));
    expect(rewrites.map((rewrite) => rewrite.source).filter((path) => !isServedPath(path))).toEqual(['/a-new-route']);
  });

  it("list exactly the served paths in Netlify's function file and the package's `config`", async () => {
    // The entry checks its configuration as it loads.
    vi.stubEnv('PUBLIC_BASE_URL', 'https://api.example.com');
    const { config } = await import('../../src/entry/netlify.ts');
    const listed = [...netlifyFunction(servedPaths()).matchAll(/^ {4}'([^']+)',$/gm)].map((match) => match[1]);
    expect(listed).toEqual(servedPaths());
    expect(config.path).toEqual(servedPaths());
    expect(servedPaths()).toContain('/mcp');
    expect(servedPaths().every(isServedPath)).toBe(true);
  });
});
