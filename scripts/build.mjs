/**
 * @module `npm run build`: compiles src/ to dist/ (tsconfig.build.json) with the repository's
 * TypeScript. Plain JavaScript, so it runs where no TypeScript loader is installed.
 *
 * `--if-installed` is the `prepare` script, which npm runs on `npm ci` and `npm install` in this
 * repository, on an install from a git URL (with the dev dependencies) and before `npm pack` and
 * `npm publish`. It builds whenever the compiler and Node's types are installed; a production
 * install (`npm ci --omit=dev`) has neither and is left unbuilt, except when packing, which fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const installed = ['typescript/package.json', '@types/node/package.json'].every((file) => existsSync(join(root, 'node_modules', file)));

if (!installed) {
  const packing = ['pack', 'publish'].includes(process.env.npm_command ?? '');
  if (process.argv.includes('--if-installed') && !packing) {
    console.log('dist/ not built: the dev dependencies are not installed (a production install). `npm ci && npm run build` builds it.');
    process.exit(0);
  }
  console.error('Cannot build dist/: TypeScript and @types/node are not installed. Run `npm ci` first.');
  process.exit(1);
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
// The package's own bin file, not node_modules/.bin (a shell shim on some platforms).
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const { status } = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
process.exit(status ?? 1);
