/**
 * The MCP section of the docs, generated from the definitions the endpoint serves: the URL,
 * transport and every revision; a host configuration that parses; each tool with its arguments and
 * its input and output JSON Schemas exactly as converted from the valibot schemas; the resources;
 * the prompts.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { describeTools, mcpMarkdown, type McpPromptDoc } from '../../src/docs/mcp-markdown.ts';
import { describeResources } from '../../src/mcp/resources.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { shapes } from '../../src/api/shapes.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../src/mcp/versions.ts';
import { BASE, sampleFacts } from '../support/handler.ts';

const facts = sampleFacts();
const tools = describeTools(TOOLS, facts, shapes);
const resources = describeResources(BASE, facts, () => new Uint8Array());
const prompts: McpPromptDoc[] = [
  { name: 'explain_product', title: 'Explain the product', description: 'What the product is for.' },
  {
    name: 'plan_safe_start',
    title: 'Plan a safe start',
    description: 'Start options and approvals.',
    arguments: [{ name: 'goal', description: 'What the person wants.', required: false }],
  },
];
const markdown = mcpMarkdown({ base: BASE, protocolVersions: MCP_PROTOCOL_VERSIONS, tools, resources, prompts });

/** The fenced JSON blocks, parsed, in order. */
const jsonBlocks = (text: string) => [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1]!));

describe('mcpMarkdown', () => {
  it('says where and how to connect, naming every revision', () => {
    expect(markdown).toContain(`**${BASE}/mcp**`);
    expect(markdown).toMatch(/Streamable HTTP, stateless/);
    for (const version of MCP_PROTOCOL_VERSIONS) expect(markdown).toContain(`\`${version}\``);
  });

  it('gives a host configuration to paste, pointing at {base}/mcp', () => {
    expect(jsonBlocks(markdown)[0]).toEqual({ mcpServers: { 'product-discovery': { type: 'http', url: `${BASE}/mcp` } } });
  });

  it('describes every tool with its input and output schema as the endpoint serves them', () => {
    const blocks = jsonBlocks(markdown).slice(1);
    expect(blocks).toHaveLength(2 * TOOLS.length);
    TOOLS.forEach((tool, index) => {
      expect(markdown).toContain(`##### \`${tool.name}\`: ${tool.title}`);
      expect(markdown).toContain(tool.description(facts).replace(/\s+/g, ' '));
      expect(blocks[2 * index]).toEqual(toJsonSchema(tool.input(shapes), { target: 'draft-2020-12' }));
      expect(blocks[2 * index + 1]).toEqual(toJsonSchema(tool.output(shapes, facts), { target: 'draft-2020-12' }));
    });
  });

  it('lists each tool’s arguments, or says it takes none', () => {
    const section = (name: string) => markdown.slice(markdown.indexOf(`##### \`${name}\``)).split('\n##### ')[0]!;
    expect(section('get_product_overview')).toContain('Arguments: none');
    expect(section('list_public_resources')).toMatch(
      /- `kind` \(optional, one of `website`, `docs`.*\): Only return resources of this kind\./,
    );
  });

  it('lists the resources and the prompts', () => {
    for (const resource of resources)
      expect(markdown).toMatch(new RegExp(`\\| ${resource.uri} \\| \`${resource.name}\` \\| ${resource.mimeType} \\|`));
    expect(markdown).toContain('- `explain_product`: Explain the product. What the product is for. Arguments: none.');
    expect(markdown).toContain(
      '- `plan_safe_start`: Plan a safe start. Start options and approvals. Arguments: `goal` (optional): What the person wants.',
    );
    expect(mcpMarkdown({ base: BASE, protocolVersions: MCP_PROTOCOL_VERSIONS, tools, resources, prompts: [] })).toMatch(
      /#### Prompts\n\nNone\.$/,
    );
  });

  it('follows the definitions: a new tool', () => {
    const extra = {
      ...tools[0]!,
      name: 'search',
      title: 'Search',
      inputSchema: { type: 'object', properties: { query: { type: 'string', minLength: 1, maxLength: 200 } }, required: ['query'] },
    };
    const text = mcpMarkdown({ base: BASE, protocolVersions: MCP_PROTOCOL_VERSIONS, tools: [...tools, extra], resources, prompts });
    expect(text).toContain('- `query` (required, string, 1 to 200 characters)');
    expect(text).toContain(`${tools.length + 1} tools`);
    expect(jsonBlocks(text)[0].mcpServers['product-discovery'].url).toBe(`${BASE}/mcp`);
  });
});
