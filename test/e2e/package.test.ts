/**
 * The package as users get it: `npm pack`, the tarball installed into a fresh project (production
 * install), then imported from plain Node (no loader), Bun and Deno, required from a Node 22
 * installed from npm, type-checked by a strict TypeScript consumer, and its `product-discovery` bin
 * run (`serve`, `check`, `verify`, `--version`, `--help`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factsJsonSchema } from '../../src/api/facts-json-schema.ts';
import { send } from '../support/e2e.ts';
import { ROOT } from '../support/entries.ts';
import pkg from '../../package.json' with { type: 'json' };
import { execFile, installConsumer, packOnce } from '../support/package.ts';

const dir = mkdtempSync(join(tmpdir(), 'package-consumer-'));
const BIN = join(dir, 'node_modules/.bin/product-discovery');
let packed: string[] = [];

beforeAll(async () => {
  // One pack (prepare builds dist/) and one production install, shared by every test below.
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
    expect(packed).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'bin/product-discovery.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cli.js',
        'dist/schemas/facts.json',
        'dist/verify/index.js',
        'dist/verify/index.d.ts',
      ]),
    );
    expect(
      packed.filter((path) => !/^(bin\/product-discovery\.js$|dist\/|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(path)),
    ).toEqual([]);
    expect(packed.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('ships the facts file JSON Schema, for an editor by path or an app by the export', async () => {
    const shipped = JSON.parse(readFileSync(join(dir, 'node_modules/product-discovery-api/dist/schemas/facts.json'), 'utf8'));
    expect(shipped).toEqual(factsJsonSchema());
    writeFileSync(
      join(dir, 'schema.mjs'),
      `import schema from 'product-discovery-api/schemas/facts.json' with { type: 'json' };\nconsole.log(schema.title);\n`,
    );
    const { stdout } = await execFile(process.execPath, ['schema.mjs'], { cwd: dir });
    expect(stdout.trim()).toBe('FactsFile');
  });

  it('installs for production in at most 30 MB, leaving out the Redis client and what only verify needs', async () => {
    // What `du -sk` counts: the disk the install takes, as an operator or a serverless bundle sees it.
    const { stdout } = await execFile('du', ['-sk', join(dir, 'node_modules')]);
    const megabytes = Number(stdout.split('\t')[0]) / 1024;
    expect(megabytes).toBeGreaterThan(1);
    expect(megabytes).toBeLessThanOrEqual(30);
    for (const optional of ['@redis/client', '@modelcontextprotocol/client', 'ajv', 'ajv-formats']) {
      expect(() => readFileSync(join(dir, 'node_modules', optional, 'package.json')), optional).toThrow();
    }
  });

  it('serves a Lambda event through deploy/lambda/index.mjs and the product-discovery-api/lambda export', async () => {
    expect(packed).toEqual(expect.arrayContaining(['dist/entry/lambda.js', 'dist/entry/lambda.d.ts']));
    writeFileSync(join(dir, 'index.mjs'), readFileSync(join(ROOT, 'deploy/lambda/index.mjs')));
    const event = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/lambda/function-url.json'), 'utf8'));
    Object.assign(event, { rawPath: '/api/v1/product', rawQueryString: '', body: null });
    event.requestContext.http.method = 'GET';
    writeFileSync(
      join(dir, 'invoke.mjs'),
      `import { handler } from './index.mjs';\nconst result = await handler(${JSON.stringify(event)}, {});\n` +
        'console.log(JSON.stringify({ status: result.statusCode, name: JSON.parse(result.body).product.name }));\n',
    );
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', PUBLIC_BASE_URL: 'https://api.example.com' };
    const { stdout } = await execFile(process.execPath, ['invoke.mjs'], { cwd: dir, env });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ status: 200, name: 'Lumen Galleries' });
    // The AWS SDK is an optional peer: not installed with the package, named when the table asks for it.
    const withTable = { ...env, RATE_LIMIT_DYNAMODB_TABLE: 'counters', AWS_REGION: 'eu-west-1' };
    const refused = await execFile(process.execPath, ['invoke.mjs'], { cwd: dir, env: withTable }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the package @aws-sdk/client-dynamodb is not installed: run `npm install @aws-sdk/client-dynamodb`');
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

  it('is required from a Node 22 installed from npm (require(esm) through the exports "require" condition)', async () => {
    const node22 = mkdtempSync(join(tmpdir(), 'node22-'));
    try {
      // The `node` package's preinstall fetches the platform's binary package from the registry.
      writeFileSync(join(node22, 'package.json'), JSON.stringify({ name: 'node22', private: true, allowScripts: { node: true } }));
      await execFile('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', 'node@22'], { cwd: node22 });
      const node = join(node22, 'node_modules/.bin/node');
      expect((await execFile(node, ['--version'])).stdout).toMatch(/^v22\./);
      writeFileSync(
        join(dir, 'app.cjs'),
        `const { checkFacts, createHandler, sampleFacts } = require('product-discovery-api');
const { verify } = require('product-discovery-api/verify');
createHandler({ publicBaseUrl: 'https://api.example.com', facts: checkFacts('sample', sampleFacts) }).then(async (handler) => {
  const response = await handler(new Request('https://api.example.com/api/v1/health'), { clientAddress: '203.0.113.7' });
  console.log(JSON.stringify({ status: response.status, version: (await response.json()).version, verify: typeof verify }));
  await handler.close();
});
`,
      );
      const { stdout, stderr } = await execFile(node, ['app.cjs'], { cwd: dir });
      expect(JSON.parse(stdout.trim())).toEqual({ status: 200, version: pkg.version, verify: 'function' });
      expect(stderr).toBe('');
    } finally {
      rmSync(node22, { recursive: true, force: true });
    }
  }, 120_000);

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
import { formatReport, verify, type Report } from 'product-discovery-api/verify';
const check = async (): Promise<string> => { const report: Report = await verify('https://api.example.com'); return formatReport(report, { color: false }); };
export { response, refused, listener, served, check };
`,
    );
    const result = await execFile(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir]).catch((error) => error);
    expect(`${result.stdout}${result.stderr}`).toBe('');
    // The same consumer with a wrong option must fail, so the check above can fail.
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { createHandler } from 'product-discovery-api';\nawait createHandler({ publicBaseUrl: 42 });\n`,
    );
    const wrong = await execFile(join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir]).catch((error) => error);
    expect(wrong.stdout).toMatch(/error TS/);
  });
});

describe('the packed product-discovery bin', () => {
  it('serves on Node with `serve`, never loading what verify needs, and stops on SIGTERM', async () => {
    const trace = join(dir, 'imports.txt');
    writeFileSync(trace, '');
    const child = spawn(BIN, ['serve'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'test/support/trace-imports.mjs'))}`,
        TRACE_IMPORTS: trace,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      for (let i = 0; i < 300 && !/Serving .* on http/.test(output) && child.exitCode === null; i++)
        await new Promise((r) => setTimeout(r, 50));
      const url = /Serving .* on (http:\/\/\S+)/.exec(output)?.[1];
      expect(url, output).toBeDefined();
      expect(output).toContain(`public API ${pkg.version} on ${url}`);
      const product = await send(`${url}/api/v1/product`);
      expect(product.status).toBe(200);
      expect(product.json().product.name).toBe('Lumen Galleries');
      expect((await send(`${url}/api/v1/health`)).json().version).toBe(pkg.version);
      const mcp = await send(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(mcp.status).toBe(200);
      // The bin runs the start-up bundle; serving, MCP included, loads none of verify's modules or dependencies (they are imported lazily).
      const loaded = readFileSync(trace, 'utf8');
      expect(loaded).toMatch(/\/dist\/start\/cli\.js\n/);
      expect(loaded).toMatch(/\/dist\/start\/server-\w+\.js\n/);
      const verifyParts =
        /\/dist\/verify\/|\/dist\/start\/verify-|\/node_modules\/(ajv|ajv-formats|structured-headers|@modelcontextprotocol\/(client|sdk))\//;
      expect(loaded.split('\n').filter((url) => verifyParts.test(url))).toEqual([]);
      // verify from the production install: its packages are left out, and it says which to install.
      const missing = await execFile(BIN, ['verify', url!, '--json']).catch((error) => error);
      expect(missing.code).toBe(2);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toBe(
        'product-discovery verify needs @modelcontextprotocol/client, ajv and ajv-formats, left out of a production install (optional peers):\n' +
          '  npm install @modelcontextprotocol/client ajv ajv-formats\n',
      );
      // Once the command it names has run, verify passes.
      const env = { ...process.env, npm_config_update_notifier: 'false' };
      const packages = ['@modelcontextprotocol/client', 'ajv', 'ajv-formats'].map(
        (name) => `${name}@${pkg.devDependencies[name as keyof typeof pkg.devDependencies]}`,
      );
      await execFile('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], { cwd: dir, env });
      const verified = await execFile(BIN, ['verify', url!, '--json']).catch((error) => error);
      const report = JSON.parse(verified.stdout);
      expect(report.checks.filter((check: { ok: boolean }) => !check.ok)).toEqual([]);
      expect(verified.code ?? 0).toBe(0);
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses to start with a Redis variable when @redis/client is not installed, naming the package (exit 1)', async () => {
    const refused = await execFile(BIN, ['serve'], {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: '0', REDIS_URL: 'redis://127.0.0.1:6379' },
    }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'REDIS_URL (the Redis rate-limit store) needs @redis/client, left out of a production install (optional peers):\n' +
        '  npm install @redis/client\n',
    );
  });

  it('prints its version with --version and -v, and its usage with --help and -h, exit 0', async () => {
    for (const flag of ['--version', '-v']) expect((await execFile(BIN, [flag])).stdout).toBe(`${pkg.version}\n`);
    for (const flag of ['--help', '-h'])
      expect((await execFile(BIN, [flag])).stdout).toMatch(/^product-discovery .*\n\nUsage:\n.*verify URL \[--json\]/s);
    const wrong = await execFile(BIN, ['verify', 'not-a-url']).catch((error) => error);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('is not an http or https URL');
  });

  it('`check` accepts a good facts file (exit 0) and refuses a bad one with the start-up message (exit 1)', async () => {
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    const sample = JSON.parse(readFileSync(join(ROOT, 'src/facts/sample-facts.json'), 'utf8'));
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
