/**
 * Before the end-to-end files (test/e2e/): the Debian packages they run (Redis, Chromium), installed
 * when missing on a fresh machine, and the docs page's generated asset modules, fresh from the
 * installed renderer (as `npm run build` makes them), for the runtimes they start. The unit files
 * need neither: vitest.config.ts makes the asset modules in memory for them.
 */
import { writeDocsAssets } from '../../scripts/docs-assets.ts';
import { ensureSystemPackages } from '../../scripts/system-packages.mjs';

export default async function setup(): Promise<void> {
  ensureSystemPackages();
  await writeDocsAssets();
}
