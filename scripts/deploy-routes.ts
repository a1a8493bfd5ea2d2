/**
 * @module `npm run deploy:routes`: writes the paths deploy/vercel/vercel.json and Netlify's function
 * file route to the service, from the route table (`servedPaths`), so that a new route reaches every
 * platform without a hand edit. test/deploy-routes.test.ts fails when the committed files drift.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { servedPaths } from '../src/routes.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The one function every served path is rewritten to; any other path stays the project's own. */
export const VERCEL_FUNCTION = '/api/product-discovery';

/** Vercel: one rewrite per served path to the catch-all function (exact paths, so other paths get Vercel's own 404). */
export function vercelJson(paths: string[]): string {
  const rewrites = paths.map((source) => `    { "source": ${JSON.stringify(source)}, "destination": "${VERCEL_FUNCTION}" }`);
  return `{\n  "$schema": "https://openapi.vercel.sh/vercel.json",\n  "rewrites": [\n${rewrites.join(',\n')}\n  ]\n}\n`;
}

/** Netlify reads `config` from the function file's text (it cannot follow an import), so the paths are written out. */
export function netlifyFunction(paths: string[]): string {
  return [
    "// The service as a Netlify Function on exactly the paths it serves; every other path stays the site's own.",
    '// `config.path` is generated from the route table: `npm run deploy:routes` in product-discovery-api.',
    "export { default } from 'product-discovery-api/netlify';",
    '',
    'export const config = {',
    '  path: [',
    ...paths.map((path) => `    '${path}',`),
    '  ],',
    '};',
    '',
  ].join('\n');
}

/** Each generated file (repository-relative) and its content from the current route table. */
export const generated = (): Record<string, string> => ({
  'deploy/vercel/vercel.json': vercelJson(servedPaths()),
  'deploy/netlify/netlify/functions/product-discovery.mts': netlifyFunction(servedPaths()),
});

/** The committed files whose content differs from what the route table gives. */
export const drifted = (): string[] =>
  Object.entries(generated())
    .filter(([file, content]) => {
      try {
        return readFileSync(ROOT + file, 'utf8') !== content;
      } catch {
        return true;
      }
    })
    .map(([file]) => file);

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [file, content] of Object.entries(generated())) writeFileSync(ROOT + file, content);
  console.log(`Wrote ${Object.keys(generated()).join(' and ')} (${servedPaths().length} paths).`);
}
