import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, startEntry, type RunningEntry } from '../support/entries.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.each(RUNTIMES)('the %s embedding example', (runtime) => {
  let app: RunningEntry;
  beforeAll(async () => {
    app = await startEntry(runtime, { PORT: String(await freePort()) }, { script: `examples/${runtime}-app.ts` });
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
