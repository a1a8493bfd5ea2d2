/**
 * @module `npm run build`: the docs page's assets (`npm run build:docs`), then src/ compiled to dist/
 * (tsconfig.build.json) with the repository's TypeScript, then Swagger UI's licences beside the
 * assets in dist/, the facts file's JSON Schema (dist/schemas/facts.json) and the start-up bundles
 * (dist/start/, scripts/bundle.mjs). Plain JavaScript, so
 * it runs where no TypeScript loader is installed.
 *
 * The build is written into a directory of its own and renamed into place, one build at a time (a
 * lock directory), so two processes started at once in one checkout (two workers of a process
 * manager running `npm run start:node`) never see a half-built or half-removed dist/.
 * `--if-stale` (`npm run start:node`) builds only when the sources changed since the last build.
 *
 * `--if-installed` is the `prepare` script, which npm runs on `npm ci` and `npm install` in this
 * repository, on an install from a git URL (with the dev dependencies) and before `npm pack` and
 * `npm publish`. It builds whenever the build tools are installed; a production install
 * (`npm ci --omit=dev`) has none of them and is left unbuilt, except when packing, which fails.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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

const DIST = join(root, 'dist');
const STATE = join(root, 'node_modules/.cache/product-discovery-build');
const LOCK = join(STATE, 'lock');
// What dist/ was built from, one file per checkout (a clone may share this node_modules by a link).
const STAMP = join(STATE, `stamp-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`);

/** Runs `node ...args` in the repository; throws when it fails. */
function node(...args) {
  const { status } = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (status !== 0) throw Object.assign(new Error(`node ${args.join(' ')} exited ${status}`), { exitCode: status ?? 1 });
}

/** A hash of everything the build reads: the sources (not the generated assets), scripts, configuration and tool versions. */
function sourcesKey() {
  const hash = createHash('sha256');
  const add = (path) => {
    if (path === join(root, 'src/docs/generated')) return;
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name));
    else hash.update(`${relative(root, path)}\0`).update(readFileSync(path));
  };
  for (const path of ['src', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) add(join(root, path));
  for (const tool of ['typescript', 'swagger-ui-dist', 'esbuild']) add(join(root, 'node_modules', tool, 'package.json'));
  return hash.digest('hex');
}

const fresh = (key) => existsSync(join(DIST, 'cli.js')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === key;

/** Whether the process that took the lock has gone (killed mid-build) without releasing it. */
function abandoned() {
  try {
    process.kill(Number(readFileSync(join(LOCK, 'pid'), 'utf8')), 0);
    return false;
  } catch (error) {
    // No pid yet (just taken) counts as held, unless it has been so for a minute.
    if (error.code === 'ENOENT') return Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 60_000;
    return error.code === 'ESRCH';
  }
}

/** Runs `work` while holding the build lock; waits for a build under way to finish. */
function withLock(work) {
  mkdirSync(STATE, { recursive: true });
  const wait = new Int32Array(new SharedArrayBuffer(4));
  for (let announced = false; ; ) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (abandoned()) {
        // One waiter wins the rename; the others find the lock gone or taken again.
        try {
          renameSync(LOCK, `${LOCK}.abandoned-${process.pid}`);
          rmSync(`${LOCK}.abandoned-${process.pid}`, { recursive: true, force: true });
        } catch {}
        continue;
      }
      if (!announced) console.log('Waiting for the build under way in this checkout...');
      announced = true;
      Atomics.wait(wait, 0, 0, 200);
    }
  }
  writeFileSync(join(LOCK, 'pid'), String(process.pid));
  try {
    return work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function build(key) {
  const started = performance.now();
  const out = join(root, `.dist-build-${process.pid}`);
  const old = join(root, `.dist-old-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  try {
    node('--import', 'tsx', 'scripts/docs-assets.ts');
    // The package's own bin file, not node_modules/.bin (a shell shim on some platforms).
    node(join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', out);
    cpSync(join(root, 'src/docs/generated/licences'), join(out, 'docs/generated/licences'), { recursive: true });
    node('--import', 'tsx', 'scripts/write-facts-schema.ts', join(out, 'schemas/facts.json'));
    node('scripts/bundle.mjs', join(out, 'start'));
    // Two renames: a process already serving from dist/ keeps the modules it loaded.
    if (existsSync(DIST)) renameSync(DIST, old);
    renameSync(out, DIST);
    writeFileSync(STAMP, key);
    console.log(`Built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

try {
  const ifStale = process.argv.includes('--if-stale');
  withLock(() => {
    const key = sourcesKey();
    if (ifStale && fresh(key)) return;
    build(key);
  });
} catch (error) {
  if (error.exitCode === undefined) throw error;
  process.exit(error.exitCode);
}
