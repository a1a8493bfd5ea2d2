/**
 * Before any test file: the Debian packages the tests run (Redis, Chromium), installed when missing
 * on a fresh machine, the docs page's generated asset modules, fresh from the installed renderer
 * (as `npm run build` makes them), and the start-up bundles the runtime entries run, from them.
 */
import { bundle } from '../../scripts/bundle.mjs';
import { writeDocsAssets } from '../../scripts/docs-assets.ts';
import { ensureSystemPackages } from '../../scripts/system-packages.mjs';
import { START_BUNDLES } from './entries.ts';

export default async function setup(): Promise<void> {
  ensureSystemPackages();
  await writeDocsAssets();
  await bundle(START_BUNDLES);
}
