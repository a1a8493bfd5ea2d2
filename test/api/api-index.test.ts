import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildApiIndex } from '../../src/api/api-index.ts';
import { deprecationNotice } from '../../src/contract/deprecation.ts';
import { TOOL_NAMES } from '../../src/mcp/tools.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../src/mcp/versions.ts';
import { ApiIndex } from '../../src/contract/schemas.ts';
import { BASE, sampleFacts } from '../support/handler.ts';

const context = {
  base: BASE,
  facts: sampleFacts(),
  name: 'Lumen Galleries public API',
  version: '1.0.0',
  mcp: { maxBodyBytes: 65536, toolNames: TOOL_NAMES, protocolVersions: MCP_PROTOCOL_VERSIONS },
  docsPage: true,
  contentSignal: 'search=yes',
  skill: () => ({ name: 'product-discovery', description: 'd', text: 't' }),
  builtAt: new Date(),
};

describe('the API index', () => {
  it('links every endpoint under {base} and names the MCP endpoint, its revisions and tools', () => {
    const index = v.parse(ApiIndex, buildApiIndex(context));
    expect(index).toMatchObject({ name: 'Lumen Galleries public API', apiVersion: 'v1', description: sampleFacts().product.summary });
    for (const link of Object.values(index.links)) expect(link.startsWith(`${BASE}/`), link).toBe(true);
    expect(index.mcp).toEqual({
      url: `${BASE}/mcp`,
      transport: 'streamable-http',
      protocolVersions: MCP_PROTOCOL_VERSIONS,
      tools: TOOL_NAMES,
    });
    expect(index.deprecation).toBeUndefined();
  });

  it('announces a deprecation with its dates and successor', () => {
    const deprecation = deprecationNotice(BASE, {
      deprecatedAt: new Date('2027-01-01'),
      sunsetAt: new Date('2027-07-01'),
      successorPath: '/api/v2',
    });
    expect(buildApiIndex({ ...context, deprecation }).deprecation).toEqual({
      deprecatedAt: '2027-01-01T00:00:00.000Z',
      sunsetAt: '2027-07-01T00:00:00.000Z',
      successor: `${BASE}/api/v2`,
    });
  });
});
