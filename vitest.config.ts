import { join } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { GENERATED, generatedFiles } from './scripts/docs-assets.ts';

/**
 * The docs page's asset modules (src/docs/generated/, written by `npm run build:docs`), made in
 * memory from the installed renderer for every import, so a unit test needs no build and never
 * reads a stale one.
 */
function docsAssetsInMemory(): Plugin {
  let files: Promise<Map<string, string>> | undefined;
  const inGenerated = (path: string) => path.startsWith(`${GENERATED}/`);
  return {
    name: 'docs-assets-in-memory',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const path = join(importer.replace(/[?#].*$/, ''), '..', source);
      return inGenerated(path) ? path : null;
    },
    async load(id) {
      if (!inGenerated(id)) return null;
      files ??= generatedFiles();
      return (await files).get(id.slice(GENERATED.length + 1)) ?? null;
    },
  };
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // End-to-end files start real servers; two cores run two files at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        plugins: [docsAssetsInMemory()],
        // In process only: no redis-server, runtime, browser or build. Anything that starts a process goes in test/e2e/.
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', '**/node_modules/**'] },
      },
      {
        extends: true,
        // Redis and Chromium installed when missing, and the docs assets written for the runtimes the files start.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/support/global-setup.ts'] },
      },
    ],
  },
});
