/**
 * The package as users get it: `npm pack`, the tarball installed into a fresh project (production
 * install), then imported from plain Node (no loader), Bun and Deno, type-checked by a strict
 * TypeScript consumer, and its `product-discovery` bin run (`serve`, `check`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factsJsonSchema } from '../src/facts-schema.ts';
import { send } from './support/e2e.ts';
import { ROOT } from './support/entries.ts';
import { execFile, installConsumer, packOnce } from './support/package.ts';

const dir = mkdtempSync(join(tmpdir(), 'package-consumer-'));
const BIN = join(dir, 'node_modules/.bin/product-discovery');
let packed: string[] = [];

beforeAll(async () => {
  // One pack (prepack builds dist/) and one production install, shared by every test below.
  const { tarball, files } = await packOnce();
  packed = files;
  await installConsumer(dir, tarball, 'npm');
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const APP = `
import { checkFacts, createHandler, sampleFacts } from 'product-discovery-api';
const handler = await createHandler({ publicBaseUrl: 'https://api.example.com', facts: checkFacts('sample', sampleFacts) });
const response = await handler(new Request('https://api.example.com/api/v1/product'), { clientAddress: '203.0.113.7' });
console.log(JSON.stringify({ status: response.status, name: (await response.json()).product.name }));
await handler.close();
`;

describe('the packed tarball', () => {
  it('holds the compiled package and nothing of the repository', () => {
    expect(packed).toEqual(expect.arrayContaining(['package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'dist/schemas/facts.json']));
    expect(packed.filter((path) => !/^(dist\/|package\.json$|README\.md$|LICENSE)/.test(path))).toEqual([]);
    expect(packed.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('ships the facts file JSON Schema, for an editor by path or an app by the export', async () => {
    const shipped = JSON.parse(readFileSync(join(dir, 'node_modules/product-discovery-api/dist/schemas/facts.json'), 'utf8'));
    expect(shipped).toEqual(factsJsonSchema());
    writeFileSync(join(dir, 'schema.mjs'), `import schema from 'product-discovery-api/schemas/facts.json' with { type: 'json' };\nconsole.log(schema.title);\n`);
    const { stdout } = await execFile(process.execPath, ['schema.mjs'], { cwd: dir });
    expect(stdout.trim()).toBe('FactsFile');
  });

  it('installs for production without a compiler or a TypeScript loader', () => {
    for (const tool of ['typescript', 'tsx', 'vitest', 'bun', 'deno']) {
      expect(() => readFileSync(join(dir, 'node_modules', tool, 'package.json')), tool).toThrow();
    }
  });

  const runtimes: [string, string[]][] = [
    ['plain Node (an .mjs, no loader)', [process.execPath, 'app.mjs']],
    ['Bun', [join(ROOT, 'node_modules/.bin/bun'), 'app.mjs']],
    ['Deno', [join(ROOT, 'node_modules/.bin/deno'), 'run', '--allow-env', '--allow-read', '--allow-net', '--allow-sys', 'app.mjs']],
  ];
  it.each(runtimes)('is imported and serves GET /api/v1/product from %s', async (_name, [command, ...args]) => {
    writeFileSync(join(dir, 'app.mjs'), APP);
    const { stdout } = await execFile(command!, args, { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ status: 200, name: 'Lumen Galleries' });
  });

  it('type-checks a strict TypeScript consumer with the repository TypeScript', async () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          strict: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          noEmit: true,
          lib: ['es2023', 'dom'],
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { checkFacts, createHandler, isServedPath, parseFacts, sampleFacts, StartupError, toNodeListener, type Handler, type HandlerOptions, type NodeListener, type Product } from 'product-discovery-api';
const facts: Product = checkFacts('sample', sampleFacts);
const options: HandlerOptions = { publicBaseUrl: 'https://api.example.com', facts };
const handler: Handler = await createHandler(options);
const response: Response = await handler(new Request('https://api.example.com/api/v1'), { clientAddress: '203.0.113.7' });
const refused: unknown = (() => { try { return parseFacts('x.json', '{}'); } catch (error) { return error instanceof StartupError; } })();
const listener: NodeListener = toNodeListener(handler);
const served: boolean = isServedPath('/api/v1');
export { response, refused, listener, served };
`,
    );
    const result = await execFile(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir]).catch((error) => error);
    expect(`${result.stdout}${result.stderr}`).toBe('');
    // The same consumer with a wrong option must fail, so the check above can fail.
    writeFileSync(join(dir, 'consumer.ts'), `import { createHandler } from 'product-discovery-api';\nawait createHandler({ publicBaseUrl: 42 });\n`);
    const wrong = await execFile(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir]).catch((error) => error);
    expect(wrong.stdout).toMatch(/error TS/);
  });
});

describe('the packed product-discovery bin', () => {
  it('serves on Node with `serve` and stops on SIGTERM', async () => {
    const child = spawn(BIN, ['serve'], { cwd: dir, env: { PATH: process.env.PATH, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      for (let i = 0; i < 300 && !/Serving .* on http/.test(output) && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
      const url = /Serving .* on (http:\/\/\S+)/.exec(output)?.[1];
      expect(url, output).toBeDefined();
      const product = await send(`${url}/api/v1/product`);
      expect(product.status).toBe(200);
      expect(product.json().product.name).toBe('Lumen Galleries');
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('`check` accepts a good facts file (exit 0) and refuses a bad one with the start-up message (exit 1)', async () => {
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    const sample = JSON.parse(readFileSync(join(ROOT, 'src/sample-facts.json'), 'utf8'));
    writeFileSync(good, JSON.stringify(sample));
    sample.resources[1].url = 'https://docs.example.com/?access_token=abc';
    writeFileSync(bad, JSON.stringify(sample));

    const ok = await execFile(BIN, ['check', good]);
    expect(ok.stdout).toContain('would be served');

    const refused = await execFile(BIN, ['check', bad]).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `Facts file ${bad} was refused:\n  resources[1].url: URL query parameter "access_token" may carry a credential; link to a public page without it\n`,
    );
    // Word for word what start-up prints for the same file.
    const startup = await execFile(process.execPath, [join(dir, 'node_modules/product-discovery-api/dist/entry/node.js')], {
      env: { PATH: process.env.PATH, PORT: '0', FACTS_FILE: bad },
    }).catch((error) => error);
    expect(startup.code).toBe(1);
    expect(startup.stderr).toBe(refused.stderr);
  });
});
