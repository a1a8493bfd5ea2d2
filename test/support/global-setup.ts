/**
 * Before the end-to-end files (test/e2e/): the Debian packages they run (Redis, Chromium), installed
 * when missing on a fresh machine, the docs page's generated asset modules, fresh from the
 * installed renderer (as `npm run build` makes them), for the runtimes they start, and the start-up
 * bundles the runtime entries run, made from them. The unit files need none of these:
 * vitest.config.ts makes the asset modules in memory for them.
 */
import { bundle } from '../../scripts/bundle.mjs';
import { writeDocsAssets } from '../../scripts/docs-assets.ts';
import { ensureSystemPackages } from '../../scripts/system-packages.mjs';
import { START_BUNDLES } from './entries.ts';

export default async function setup(): Promise<void> {
  ensureSystemPackages();
  await writeDocsAssets();
  await bundle(START_BUNDLES, { withDocsBodies: true });
}
