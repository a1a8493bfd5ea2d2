/**
 * @module `npm run build`: the docs page's assets (`npm run build:docs`), then src/ compiled to dist/
 * (tsconfig.build.json) with the repository's TypeScript, then Swagger UI's licences beside the
 * assets in dist/, the facts file's JSON Schema (dist/schemas/facts.json) and the start-up bundles
 * (dist/start/, scripts/bundle.mjs). Plain JavaScript, so
 * it runs where no TypeScript loader is installed.
 *
 * `--if-installed` is the `prepare` script, which npm runs on `npm ci` and `npm install` in this
 * repository, on an install from a git URL (with the dev dependencies) and before `npm pack` and
 * `npm publish`. It builds whenever the build tools are installed; a production install
 * (`npm ci --omit=dev`) has none of them and is left unbuilt, except when packing, which fails.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = ['typescript', '@types/node', 'tsx', 'swagger-ui-dist', 'esbuild'];
const installed = TOOLS.every((name) => existsSync(join(root, 'node_modules', name, 'package.json')));

if (!installed) {
  const packing = ['pack', 'publish'].includes(process.env.npm_command ?? '');
  if (process.argv.includes('--if-installed') && !packing) {
    console.log('dist/ not built: the dev dependencies are not installed (a production install). `npm ci && npm run build` builds it.');
    process.exit(0);
  }
  console.error(`Cannot build dist/: the build needs ${TOOLS.join(', ')} (dev dependencies). Run \`npm ci\` first.`);
  process.exit(1);
}

/** Runs `node ...args` in the repository; stops the build when it fails. */
function node(...args) {
  const { status } = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
node('--import', 'tsx', 'scripts/docs-assets.ts');
// The package's own bin file, not node_modules/.bin (a shell shim on some platforms).
node(join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json');
cpSync(join(root, 'src/docs/generated/licences'), join(root, 'dist/docs/generated/licences'), { recursive: true });
node('--import', 'tsx', 'scripts/write-facts-schema.ts');
node('scripts/bundle.mjs');
