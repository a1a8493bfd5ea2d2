/** Before any test file: the docs page's generated asset modules, fresh from the installed renderer (as `npm run build` makes them). */
import { writeDocsAssets } from '../../scripts/docs-assets.ts';

export default async function setup(): Promise<void> {
  await writeDocsAssets();
}
