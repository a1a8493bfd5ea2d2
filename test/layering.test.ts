/**
 * The imports of src/ run one way. Every import of every module (static, `export ... from`, `import
 * type` and dynamic `import('...')` alike) is read from the source; the test fails on any circle and
 * on any import of a module from a higher layer than the importer's. The layers are declared once,
 * below, bottom to top; a module belongs to the layer of the most specific pattern naming it (a file
 * over its folder). Within a layer modules may import each other, without a circle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/entries.ts';

/** Bottom to top: a module imports only from its own layer and the ones below it. `dir/**` is a folder, anything else one file. */
const LAYERS: readonly (readonly string[])[] = [
  ['util/**'],
  ['facts/**', 'agents/**'],
  ['contract/**'],
  ['route.ts'],
  ['discovery/**', 'docs/**'],
  ['http/**'],
  ['mcp/**'],
  ['api/**'],
  ['routes.ts'],
  ['surface.ts', 'ratelimit/**', 'telemetry/**'],
  ['handler.ts'],
  ['startup/**'],
  ['index.ts', 'entry/**'],
  ['verify/**', 'cli/**'],
  ['cli.ts'],
];

const SRC = join(ROOT, 'src');

function modules(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === 'client' ? [] : modules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(SRC, path).split('\\').join('/')] : [];
  });
}

// `from '...'` (import and export), a bare `import '...'`, and `import('...')`.
const IMPORT = /\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/gm;

/** The modules of src/ a source text imports, by their path under src/ (packages and JSON files left out). */
function importsOf(file: string, text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3]!;
    if (!specifier.startsWith('.') || !specifier.endsWith('.ts')) continue;
    const path = posix.normalize(posix.join(posix.dirname(file), specifier));
    if (!path.startsWith('../')) found.add(path);
  }
  return [...found];
}

/** The layer of a module: that of the most specific pattern naming it (a file over a folder, a deeper folder over a shallower one). */
function layerOf(file: string, layers = LAYERS): number | undefined {
  let best: { layer: number; weight: number } | undefined;
  layers.forEach((patterns, layer) => {
    for (const pattern of patterns) {
      const folder = pattern.endsWith('/**') ? pattern.slice(0, -2) : undefined;
      const weight = folder ? (file.startsWith(folder) ? folder.length : -1) : file === pattern ? Number.MAX_SAFE_INTEGER : -1;
      if (weight >= 0 && (!best || weight > best.weight)) best = { layer, weight };
    }
  });
  return best?.layer;
}

/** Every circle of the graph (Tarjan's strongly connected components of more than one module, or a module importing itself). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const files = modules();
const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(join(SRC, file), 'utf8'))]));

describe('the imports of src/', () => {
  it('are read: every module is found, with its static, type and dynamic imports', () => {
    expect(files).toContain('handler.ts');
    expect(graph.get('cli.ts')).toEqual(expect.arrayContaining(['cli/check.ts', 'entry/node.ts']));
    expect(
      importsOf(
        'a/b.ts',
        "import type { X } from '../c.ts';\nexport { y } from './d.ts';\nawait import('../e/f.ts');\nimport x from 'pkg';",
      ),
    ).toEqual(['c.ts', 'a/d.ts', 'e/f.ts']);
  });

  it('put every module in a declared layer', () => {
    expect(files.filter((file) => layerOf(file) === undefined)).toEqual([]);
  });

  it('have no circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('never import a module of a higher layer', () => {
    const against = [...graph].flatMap(([file, imports]) =>
      imports
        .filter((imported) => (layerOf(imported) ?? 0) > (layerOf(file) ?? 0))
        .map((imported) => `${file} (layer ${layerOf(file)}) imports ${imported} (layer ${layerOf(imported)})`),
    );
    expect(against).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('find a circle, and only a circle', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts', 'd.ts']],
      ['e.ts', ['a.ts']],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
  });

  it('give a file the layer of its most specific pattern', () => {
    const layers = [['x/**'], ['x/y.ts', 'x/z/**']];
    expect([layerOf('x/a.ts', layers), layerOf('x/y.ts', layers), layerOf('x/z/w.ts', layers), layerOf('q.ts', layers)]).toEqual([
      0,
      1,
      1,
      undefined,
    ]);
  });
});
