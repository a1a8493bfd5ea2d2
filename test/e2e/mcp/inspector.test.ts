/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector`, `mcp-inspector --cli`) against a
 * running entry, headless and from the repository root: list the tools and prompts, call tools,
 * exit code 0, JSON on stdout. Not a dev dependency (it asks for Node 22.19+, and `npm ci` would warn
 * about its engines): installed at this version on first run.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, RUNTIMES, startEntry, type RunningEntry } from '../../support/entries.ts';
import { PROMPT_NAMES, TOOL_NAMES } from '../../support/mcp.ts';
import { installedTool } from '../../support/tools.ts';

const VERSION = '2.12.0';
let inspectorBin: string;

// The CLI keeps a catalog and storage under the home directory: a throwaway one per run.
let home: string;
beforeAll(async () => {
  inspectorBin = join(await installedTool('@modelcontextprotocol/inspector', VERSION), 'node_modules/.bin/mcp-inspector');
  home = await mkdtemp(join(tmpdir(), 'inspector-home-'));
}, 180_000);
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

function inspector(url: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [inspectorBin, '--cli', `${url}/mcp`, '--transport', 'http', ...args],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, HOME: home, NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe.each(RUNTIMES)('MCP Inspector CLI against the %s entry', (runtime) => {
  let server: RunningEntry;
  let product: { resources: Array<{ kind: string }>; startOptions: unknown[] };

  beforeAll(async () => {
    server = await startEntry(runtime, { RATE_LIMIT_QUOTA: '100000' });
    product = await (await fetch(`${server.url}/api/v1/product`)).json();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists the read-only tools (--method tools/list)', async () => {
    const run = await inspector(server.url, '--method', 'tools/list');
    expect(run.code, run.stderr).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: Array<{ name: string; annotations: Record<string, unknown> }> };
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) expect(tool.annotations.readOnlyHint, tool.name).toBe(true);
  });

  it('calls list_start_options (--method tools/call --tool-name list_start_options)', async () => {
    const run = await inspector(server.url, '--method', 'tools/call', '--tool-name', 'list_start_options');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ startOptions: product.startOptions });
  });

  // The remaining checks are about the Inspector and the tools, not the runtime: one entry is enough.
  if (runtime === 'node') {
    it('calls list_public_resources with a kind (--tool-arg kind=docs)', async () => {
      const run = await inspector(server.url, '--method', 'tools/call', '--tool-name', 'list_public_resources', '--tool-arg', 'kind=docs');
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout);
      const docs = product.resources.filter((resource) => resource.kind === 'docs');
      expect(docs.length).toBeGreaterThan(0);
      expect(result.structuredContent).toEqual({ resources: docs });
    });

    it('lists the prompts and gets plan_safe_start with a goal (--method prompts/get --prompt-args goal=...)', async () => {
      const list = await inspector(server.url, '--method', 'prompts/list');
      expect(list.code, list.stderr).toBe(0);
      expect(
        JSON.parse(list.stdout)
          .prompts.map((prompt: { name: string }) => prompt.name)
          .sort(),
      ).toEqual([...PROMPT_NAMES].sort());
      const run = await inspector(
        server.url,
        '--method',
        'prompts/get',
        '--prompt-name',
        'plan_safe_start',
        '--prompt-args',
        'goal=deliver a wedding',
      );
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).messages[0].content.text).toMatch(/deliver a wedding/);
    });

    it('searches and fetches as a connector does (--tool-arg query=... then id=...)', async () => {
      const search = await inspector(server.url, '--method', 'tools/call', '--tool-name', 'search', '--tool-arg', 'query=free trial');
      expect(search.code, search.stderr).toBe(0);
      const [first] = JSON.parse(search.stdout).structuredContent.results;
      expect(first.id).toMatch(/^start:/);
      const fetched = await inspector(server.url, '--method', 'tools/call', '--tool-name', 'fetch', '--tool-arg', `id=${first.id}`);
      expect(fetched.code, fetched.stderr).toBe(0);
      expect(JSON.parse(fetched.stdout).structuredContent).toMatchObject({ id: first.id, url: first.url });
    });

    it('exits non-zero when the tool does not exist', async () => {
      const run = await inspector(server.url, '--method', 'tools/call', '--tool-name', 'no_such_tool');
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/no_such_tool/);
    });
  }
});
