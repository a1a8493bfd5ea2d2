import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEntry, type RunningEntry, type RuntimeName } from '../support/entries.ts';

/** Every embedding example, each started for real on its runtime. */
const EXAMPLES: { name: string; runtime: RuntimeName; script: string }[] = [
  { name: 'Bun.serve', runtime: 'bun', script: 'examples/bun-app.ts' },
  { name: 'Deno.serve', runtime: 'deno', script: 'examples/deno-app.ts' },
  { name: 'node:http', runtime: 'node', script: 'examples/node-app.ts' },
  { name: 'Hono', runtime: 'node', script: 'examples/hono-app.ts' },
  { name: 'Express', runtime: 'node', script: 'examples/express-app.ts' },
];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.each(EXAMPLES)('the $name embedding example', ({ runtime, script }) => {
  let app: RunningEntry;
  beforeAll(async () => {
    app = await startEntry(runtime, { PORT: String(await freePort()) }, { script });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('serves the host app its own pages', async () => {
    const response = await fetch(`${app.url}/`);
    expect(await response.text()).toContain('served by the host app');
  });

  it('mounts the discovery API with links to its own base URL', async () => {
    const response = await fetch(`${app.url}/api/v1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toBe('"default";q=120;w=60');
    expect((await response.json()).links.openapi).toBe(`${app.url}/openapi.json`);
  });

  it('hands the discovery API its paths whatever the query string', async () => {
    const response = await fetch(`${app.url}/openapi.json?x=1`);
    expect(response.status).toBe(200);
    expect((await response.json()).openapi).toMatch(/^3\.1\./);
    const problem = await fetch(`${app.url}/problems/rate_limited`);
    expect(problem.status).toBe(200);
  });

  it('keeps the paths the discovery API does not own for the host app', async () => {
    for (const path of ['/api/v2', '/api/v1x', '/mcpx']) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type') ?? '', `${path} answered by the host app, not the API`).not.toContain('problem+json');
    }
  });

  it('answers MCP through the mounted handler', async () => {
    const response = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_start_options', arguments: {} } }),
    });
    const body = await response.json();
    expect(body.result.structuredContent.startOptions.length).toBeGreaterThan(0);
  });
});
