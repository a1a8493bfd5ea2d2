/**
 * @module The Bun start-up bundle, OUTDIR/bun.js, with its bytecode beside it (OUTDIR/bun.js.jsc):
 * run by Bun (`bun scripts/bundle-bun.mjs OUTDIR`), which bundle.mjs does after esbuild has written
 * the other bundles. Bun compiles a CommonJS bundle to JavaScriptCore bytecode ahead of time
 * (bun.com/docs/bundler/bytecode; ES modules only inside `--compile` executables), so a start reads
 * the bytecode instead of parsing the file: about 7 ms less CPU to the first answer here
 * (docs/performance.md). Bytecode fits only the Bun version that wrote it; another version ignores
 * it and parses the source, as it would without it.
 *
 * One file, since CommonJS output cannot be split: what the esbuild bundles load on use (the
 * schemas, the facts check, the OpenAPI builder) is in it, evaluated only when first imported as
 * there; the packages only those parts use stay in node_modules and load on use, with `require`
 * (the MCP SDK through ES modules beside it, below).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUN_PRAGMA, checkedSample, DOCS_BODIES, LOADED_ON_USE, OPTIONAL_PEERS, root } from './bundle.mjs';

/** The dependencies the start path itself imports, bundled; the others are resolved from node_modules when first used. */
const ON_THE_START_PATH = ['valibot', 'hono'];

/**
 * The MCP SDK's modules, which bun.js requires through a one-line ES module beside it
 * (`mcp-sdk-….mjs`): `require` of the package itself would load its CommonJS build, about 25 ms
 * slower to load in a fresh Bun here than its ES modules, which the first MCP answer would pay.
 */
const MCP_SDK_SPECIFIERS = ['@modelcontextprotocol/server', '@modelcontextprotocol/server/ext/skills'];
const MCP_SDK = new RegExp(`^(${MCP_SDK_SPECIFIERS.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
const shimOf = (specifier) => `mcp-sdk-${specifier.slice('@modelcontextprotocol/'.length).replaceAll('/', '-')}.mjs`;

export async function bundleBun(outdir) {
  const dependencies = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies ?? {});
  const result = await Bun.build({
    entrypoints: [join(root, 'src/entry/bun.ts')],
    outdir,
    naming: 'bun.js',
    target: 'bun',
    format: 'cjs',
    bytecode: true,
    minify: true,
    external: [...OPTIONAL_PEERS, ...LOADED_ON_USE, ...dependencies.filter((name) => !ON_THE_START_PATH.includes(name)), 'cloudflare:*'],
    define: { CHECKED_SAMPLE_FACTS: JSON.stringify(await checkedSample()) },
    plugins: [
      {
        name: 'mcp-sdk-as-es-modules',
        setup(build) {
          build.onResolve({ filter: MCP_SDK }, ({ path }) => ({ path: `./${shimOf(path)}`, external: true }));
        },
      },
      {
        name: 'shared-docs-bodies',
        setup(build) {
          build.onResolve({ filter: /\/generated\/bodies(\.ts)?$/ }, () => ({ path: DOCS_BODIES, external: true }));
        },
      },
    ],
  });
  if (!result.success) throw new AggregateError(result.logs, 'The Bun start-up bundle failed to build');
  for (const specifier of MCP_SDK_SPECIFIERS) writeFileSync(join(outdir, shimOf(specifier)), `export * from '${specifier}';\n`);
  const written = readFileSync(join(outdir, 'bun.js'), 'utf8');
  if (!written.startsWith(BUN_PRAGMA)) throw new Error(`${outdir}/bun.js does not begin with ${BUN_PRAGMA}`);
}

if (import.meta.main) await bundleBun(process.argv[2]);
