/**
 * docs/architecture.md against the code: its layer drawing names exactly the layers that
 * test/layering.test.ts declares, in the same order, and every file it names exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks } from './support/docs.ts';
import { ROOT } from './support/entries.ts';

const CHAPTER = 'docs/architecture.md';
const exists = (path: string) => existsSync(join(ROOT, path));

/** The layers of test/layering.test.ts, bottom to top, read from its `LAYERS` declaration. */
function declaredLayers(): string[][] {
  const text = readFileSync(join(ROOT, 'test/layering.test.ts'), 'utf8');
  const declaration = /const LAYERS[^=]*=\s*\[([\s\S]*?)\n\];/.exec(text)?.[1];
  if (!declaration) throw new Error('no LAYERS declaration in test/layering.test.ts');
  return [...declaration.matchAll(/\[([^\]]*)\]/g)].map(([, items]) => [...items!.matchAll(/'([^']+)'/g)].map(([, item]) => item!));
}

/** A module or folder pattern as the drawing writes it: `dir/**` or `path/file.ts`. */
const PATTERN = /^[a-z-]+(?:\/[a-z-]+)*(?:\/\*\*|\.ts)$/;

/** The drawing's layers by number (the block that names `util/**`), in the order the lines give them. */
function drawnLayers(block: string): { layer: number; patterns: string[] }[] {
  return block
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, layer, rest]) => ({ layer: Number(layer), patterns: rest!.split(/\s+/).filter((word) => PATTERN.test(word)) }));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('docs/architecture.md', () => {
  const text = readFileSync(join(ROOT, CHAPTER), 'utf8');

  it('draws the layers of test/layering.test.ts, top first, each with exactly its patterns', () => {
    const layers = declaredLayers();
    expect(layers.length).toBeGreaterThan(5);
    const block = codeBlocks(CHAPTER).find(({ text }) => text.includes('util/**'));
    expect(block, 'a text block drawing the layers').toBeDefined();
    const drawn = drawnLayers(block!.text);
    expect(drawn.map(({ layer }) => layer)).toEqual(layers.map((_, layer) => layer).reverse());
    for (const { layer, patterns } of drawn) expect(patterns.sort(), `layer ${layer}`).toEqual([...layers[layer]!].sort());
  });

  it('names only files that exist (a path under the repository or src/, or a module name found in src/)', () => {
    const sources = filesUnder(join(ROOT, 'src')).map((path) => path.slice(ROOT.length + 1));
    const named = new Set([...text.matchAll(/(?<![\w./-])([\w-]+(?:\/[\w.-]+)*\.(?:ts|mjs|js|json))(?![\w/])/g)].map(([, path]) => path!));
    const missing = [...named].filter((path) => {
      if (path.startsWith('dist/')) return false; // built, not committed
      if (!path.includes('/')) return !sources.some((source) => source.endsWith(`/${path}`)) && !exists(path);
      return !exists(path) && !exists(`src/${path}`);
    });
    expect(named.size).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });
});

describe('drawnLayers, how the test reads the drawing', () => {
  it('takes the numbered lines and their patterns, leaving the words out', () => {
    const block = ['14  cli.ts          top: the bin', ' 4  a/b.ts  docs/**', '                 the builders', ' 0  util/**'].join('\n');
    expect(drawnLayers(block)).toEqual([
      { layer: 14, patterns: ['cli.ts'] },
      { layer: 4, patterns: ['a/b.ts', 'docs/**'] },
      { layer: 0, patterns: ['util/**'] },
    ]);
  });
});
