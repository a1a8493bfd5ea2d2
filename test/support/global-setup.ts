/**
 * Before any test file: the Debian packages the tests run (Redis, Chromium), installed when missing
 * on a fresh machine, and the docs page's generated asset modules, fresh from the installed renderer
 * (as `npm run build` makes them).
 */
import { writeDocsAssets } from '../../scripts/docs-assets.ts';
import { ensureSystemPackages } from '../../scripts/system-packages.mjs';

export default async function setup(): Promise<void> {
  ensureSystemPackages();
  await writeDocsAssets();
}
