/**
 * The MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`, bin `mcp-inspector-cli`) against a
 * running entry, headless: list the tools and call them, exit code 0, JSON on stdout.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, RUNTIMES, startEntry, type RunningEntry } from '../support/entries.ts';
import { TOOL_NAMES } from '../support/mcp.ts';

const INSPECTOR = join(ROOT, 'node_modules', '.bin', 'mcp-inspector-cli');

/**
 * inspector-cli 1.0.3 looks for its own package.json at `../package.json` relative to the working
 * directory (then falls back to a path that does not exist in the standalone package), so it exits 1
 * with "Cannot find module .../@modelcontextprotocol/package.json" when run from the repository root.
 * Run from a folder of the repository (here test/), whose parent holds a package.json, it works.
 */
const CWD = join(ROOT, 'test');

function inspector(url: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', `${url}/mcp`, '--transport', 'http', ...args],
      { cwd: CWD, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
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

  it('lists the three read-only tools (--method tools/list)', async () => {
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

    it('exits non-zero when the tool does not exist', async () => {
      const run = await inspector(server.url, '--method', 'tools/call', '--tool-name', 'no_such_tool');
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/no_such_tool/);
    });
  }
});
