import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUN_PRAGMA, bundle, checkedSample } from '../../scripts/bundle.mjs';
import { checkFacts } from '../../src/facts/check.ts';
import sampleFacts from '../../src/facts/sample-facts.json' with { type: 'json' };

describe('the shipped sample in the start-up bundles', () => {
  it('is what checkFacts makes of it at start', async () => {
    expect(await checkedSample()).toEqual(checkFacts('(shipped sample)', sampleFacts));
  });

  it('fails the build when the sample is refused', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sample-')), 'facts.json');
    writeFileSync(file, JSON.stringify({ ...sampleFacts, resources: [] }));
    await expect(checkedSample(file)).rejects.toThrow(/resources.*at least one/s);
  });
});

/** The files a bundle loads before it runs: itself and every chunk it imports statically, transitively. */
function staticGraph(dir: string, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(dir, file), 'utf8');
  for (const [, imported] of text.matchAll(/(?:import|export)\s*(?:[^"();]*?from\s*)?"\.\/([^"]+)"/g)) staticGraph(dir, imported!, seen);
  return seen;
}

describe('what a start-up bundle loads before it serves', () => {
  // Text found only in each group of schemas, the check of a facts file and the JSON Schema conversion.
  const LOADED_ON_USE = {
    'the facts schemas': 'Reviewed facts about the product.',
    'the REST answer schemas': 'Service status. "degraded" still answers every request',
    'the discovery schemas': 'The API reference page (HTML): Swagger UI rendering',
    'the MCP schemas': 'A JSON-RPC batch: up to',
    'the facts check': 'was refused:',
    'the OpenAPI document builder': 'A dependency is down and the service fails closed',
  };

  const dir = mkdtempSync(join(tmpdir(), 'bundles-'));
  beforeAll(() => bundle(dir), 60_000);

  // Bun's bundle is one bytecode-compiled file (below): what it evaluates on use is in it, but not parsed at start.
  it('holds no schema, no facts check and no OpenAPI builder: the first document that needs them loads them', () => {
    const everything = readdirSync(dir)
      .filter((file) => file.endsWith('.js') && file !== 'bun.js')
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .join('\n');
    for (const entry of ['node.js', 'deno.js']) {
      const loaded = [...staticGraph(dir, entry)].map((file) => readFileSync(join(dir, file), 'utf8')).join('\n');
      for (const [what, text] of Object.entries(LOADED_ON_USE)) {
        expect(everything, `${what} are bundled`).toContain(text);
        expect(loaded.includes(text), `${entry} loads ${what} at start`).toBe(false);
      }
    }
  });

  it('begins every file with the pragma that spares Bun a transpiler pass over it', () => {
    const files = readdirSync(dir).filter((file) => file.endsWith('.js'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8'), file).toMatch(new RegExp(`^${BUN_PRAGMA}[ \n]`));
  });

  it('gives Bun one CommonJS file with its bytecode beside it, which Bun reads instead of parsing the file', () => {
    expect(readFileSync(join(dir, 'bun.js'), 'utf8')).toMatch(/^\/\/ @bun @bytecode @bun-cjs\n/);
    expect(statSync(join(dir, 'bun.js.jsc')).size).toBeGreaterThan(100_000);
    // Nothing else of the others' bundles: Bun's is self-contained but for the packages it loads on use.
    expect(readFileSync(join(dir, 'bun.js'), 'utf8')).not.toMatch(/["']\.\/chunk-/);
    // The MCP SDK through ES modules beside it: `require` of the package would load its slower CommonJS build.
    expect(readFileSync(join(dir, 'bun.js'), 'utf8')).not.toMatch(/require\("@modelcontextprotocol\//);
    expect(readFileSync(join(dir, 'mcp-sdk-server.mjs'), 'utf8')).toBe("export * from '@modelcontextprotocol/server';\n");
  });
});
