/**
 * One list of protocol revisions (src/mcp/versions.ts), named the same everywhere: server/discover,
 * the -32022 unsupported-version error, the 2025-era version error, the server card, the API index
 * and the OpenAPI document.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handler.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../src/mcp/versions.ts';
import { closeHandlers, makeHandler, send } from '../support/handler.ts';
import { frame, LEGACY_VERSIONS, MODERN, type Era } from '../support/mcp.ts';

let handler: Handler;
beforeAll(async () => {
  handler = await makeHandler();
});
afterAll(closeHandlers);

async function rpc(era: Era, method: string, version?: string) {
  const { headers, body } = frame(era, method, {}, { version });
  return (await send(handler, '/mcp', { method: 'POST', headers, body })).json();
}

const json = async (path: string) => (await send(handler, path)).json();

describe('the protocol revisions', () => {
  it('are the current one and the three 2025 ones, newest first', () => {
    expect(MCP_PROTOCOL_VERSIONS).toEqual([MODERN, ...LEGACY_VERSIONS]);
  });

  it("name only 2025 revisions that the SDK's 2025-era transport implements", () => {
    for (const version of MCP_PROTOCOL_VERSIONS.filter((version) => version !== MODERN))
      expect(SUPPORTED_PROTOCOL_VERSIONS, version).toContain(version);
  });

  it('are what server/discover reports', async () => {
    expect((await rpc('modern', 'server/discover')).result.supportedVersions).toEqual(MCP_PROTOCOL_VERSIONS);
  });

  // SEP-2575: the error's list must be a subset of discover's; the contract wants them equal.
  it('are what the unsupported-version error (-32022) lists', async () => {
    const { error } = await rpc('modern', 'tools/list', '2099-01-01');
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: MCP_PROTOCOL_VERSIONS, requested: '2099-01-01' });
  });

  it("are what the 2025-era transport's version error names", async () => {
    const { error } = await rpc('legacy', 'tools/list', '1999-01-01');
    expect(/supported versions: ([^)]*)/.exec(error.message)?.[1]?.split(', ')).toEqual(MCP_PROTOCOL_VERSIONS);
  });

  it('are what the server card and the API index list', async () => {
    expect((await json('/mcp/server-card')).remotes[0].supportedProtocolVersions).toEqual(MCP_PROTOCOL_VERSIONS);
    expect((await json('/.well-known/mcp/server-card.json')).remotes[0].supportedProtocolVersions).toEqual(MCP_PROTOCOL_VERSIONS);
    expect((await json('/api/v1')).mcp.protocolVersions).toEqual(MCP_PROTOCOL_VERSIONS);
  });

  it("are each named by the OpenAPI document's MCP operation", async () => {
    const operation = JSON.stringify((await json('/openapi.json')).paths['/mcp'].post);
    for (const version of MCP_PROTOCOL_VERSIONS) expect(operation, version).toContain(version);
  });
});
