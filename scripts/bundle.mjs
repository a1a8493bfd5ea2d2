/**
 * @module The start-up bundles: every runtime entry (src/entry/*.ts) and the bin (src/cli.ts)
 * bundled by esbuild into one file each under dist/start/, with what only some requests or commands
 * use (the MCP SDK, the Redis store, verify) split into chunks beside them, loaded on first use. A
 * cold start then reads one minified file instead of about 80 modules and their packages.
 * The docs page's 1.9 MB of assets are not copied into the bundles: they import the module the
 * package already ships, OUTDIR/../docs/generated/bodies.js (in dist/, what tsc compiled).
 * Bun's entry is the exception: Bun bundles it itself into one CommonJS file with its bytecode
 * (bundle-bun.mjs).
 * Run by `npm run build` (`node scripts/bundle.mjs OUTDIR`); the end-to-end tests bundle into
 * node_modules/.cache/ with the assets module beside them.
 *
 * Left out, and so resolved from node_modules at run time: the runtimes' own modules, the MCP SDK
 * (loaded on the first MCP request) and the optional peer dependencies, whose absence the code
 * reports by name (src/util/optional.ts).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The optional peer dependencies (Redis client, verify's, OpenTelemetry's): found at run time, when installed. */
export const OPTIONAL_PEERS = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies ?? {});

/**
 * The MCP SDK and its schema library load on the first MCP request, never at start: bundling them
 * would only put a second copy (about 0.5 MB) beside the installed one.
 */
export const LOADED_ON_USE = ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod'];

/**
 * The first line of every bundle and chunk. Bun runs its own transpiler over each JavaScript file it
 * loads unless the file begins with this comment, which says it is already plain JavaScript for Bun
 * (bun.com/docs/bundler, the `// @bun` pragma its own bundler writes); Node and Deno read a comment.
 * Skipping that pass took about 1.5 ms off Bun's start here (docs/performance.md).
 */
export const BUN_PRAGMA = '// @bun';

/** The files bundled, by the name of their bundle: `src/entry/bun.ts` becomes `OUTDIR/bun.js`, `src/cli.ts` `OUTDIR/cli.js`. */
export function startFiles() {
  const entries = readdirSync(join(root, 'src/entry'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => [file.slice(0, -'.ts'.length), join(root, 'src/entry', file)]);
  return Object.fromEntries([...entries, ['cli', join(root, 'src/cli.ts')]]);
}

/**
 * The Node entry serves HTTP/1.1 (node:http). @hono/node-server imports node:http2 only to tell
 * HTTP/2 requests apart, which never come; loading it (and node:tls with it) took about 30 ms of a
 * Node cold start here, so the bundles get a stand-in that no request is an instance of.
 */
const http1Only = {
  name: 'http1-only',
  setup(build) {
    build.onResolve({ filter: /^(node:)?http2$/ }, () => ({ path: 'http2', namespace: 'http1-only' }));
    build.onLoad({ filter: /.*/, namespace: 'http1-only' }, () => ({
      contents: 'export class Http2ServerRequest {}\nexport const constants = {};\n',
      loader: 'js',
    }));
  },
};

/** Chunks sit beside the entries, so this path is right from every file that imports the assets. */
export const DOCS_BODIES = '../docs/generated/bodies.js';

const sharedDocsBodies = {
  name: 'shared-docs-bodies',
  setup(build) {
    build.onResolve({ filter: /\/generated\/bodies(\.ts)?$/ }, () => ({ path: DOCS_BODIES, external: true }));
  },
};

/**
 * The shipped sample facts, checked now (`checkFacts`, as a start would) and handed to the bundles
 * checked: a start that serves the sample then skips checking it (4 to 6 ms of CPU at every start
 * here); a start with FACTS_FILE still checks that file. A sample that fails the check fails the build.
 */
export async function checkedSample(sampleFile = join(root, 'src/facts/sample-facts.json')) {
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    stdin: {
      contents:
        `import { checkFacts } from './src/facts/check.ts'; import sample from ${JSON.stringify(sampleFile)} with { type: 'json' };\n` +
        "export default checkFacts('(shipped sample)', sample);",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  const url = `data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`;
  return (await import(url)).default;
}

/** `withDocsBodies`: also write the assets module the bundles import (dist/ has the one tsc compiled). */
export async function bundle(outdir = join(root, 'dist/start'), { withDocsBodies = false } = {}) {
  const { build } = await import('esbuild');
  if (withDocsBodies) {
    await build({
      entryPoints: [join(root, 'src/docs/generated/bodies.ts')],
      outfile: join(outdir, DOCS_BODIES),
      format: 'esm',
      logLevel: 'warning',
    });
  }
  // Bun's bundle is Bun's own build (bundle-bun.mjs): bytecode, which esbuild cannot write. Where
  // Bun is not installed (the container's build, which installs no runtime), esbuild bundles it too.
  const withBun = bunAvailable();
  const { bun, ...others } = startFiles();
  if (!withBun) console.warn('Bun is not installed here: dist/start/bun.js is bundled by esbuild, without bytecode.');
  await build({
    entryPoints: withBun ? others : { bun, ...others },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    // jsonc-parser's "main" is a UMD build whose requires esbuild cannot follow; its "module" is ESM.
    mainFields: ['module', 'main'],
    minify: true,
    legalComments: 'linked',
    chunkNames: '[name]-[hash]',
    external: [...OPTIONAL_PEERS, ...LOADED_ON_USE, 'cloudflare:*', 'bun', 'bun:*'],
    plugins: [http1Only, sharedDocsBodies],
    define: { CHECKED_SAMPLE_FACTS: JSON.stringify(await checkedSample()) },
    banner: { js: BUN_PRAGMA },
    logLevel: 'warning',
  });
  if (withBun) bundleForBun(outdir);
}

/** The Bun that builds Bun's bundle: this process when it is Bun, else the project's (a dev dependency). */
const BUN = 'Bun' in globalThis ? process.execPath : join(root, 'node_modules/.bin/bun');
/** Whether that Bun runs (an install with --ignore-scripts has only its placeholder). */
const bunAvailable = () => 'Bun' in globalThis || spawnSync(BUN, ['--version']).status === 0;

/** Runs bundle-bun.mjs in its own Bun process, which imports what it shares from this module. */
function bundleForBun(outdir) {
  const bun = spawnSync(BUN, [join(root, 'scripts/bundle-bun.mjs'), outdir], { stdio: 'inherit' });
  if (bun.status !== 0) throw new Error(`The Bun start-up bundle failed to build (${bun.error?.message ?? `exit ${bun.status}`})`);
}

if (import.meta.url === `file://${process.argv[1]}`) await bundle(process.argv[2]);
