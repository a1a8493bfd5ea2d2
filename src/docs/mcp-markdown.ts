/**
 * @module The MCP endpoint described for people, as Markdown that the OpenAPI document carries (the
 * MCP operation's description), so the docs page shows it: how to connect, a host configuration to
 * paste, each tool with its input and output schema, the resources and the prompts. Generated from
 * the definitions the endpoint serves, never written by hand.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { MCP_PATH } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { inline } from '../util/text.ts';

/** The parts of a JSON Schema (draft 2020-12) the reference reads; the rest is kept as it is. */
interface JsonSchema {
  type?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  description?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}

/** A tool as `tools/list` gives it. */
export interface McpToolDoc {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

/** A resource as `resources/list` gives it. */
export interface McpResourceDoc {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

/** A prompt as `prompts/list` gives it. */
export interface McpPromptDoc {
  name: string;
  title?: string;
  description?: string;
  arguments?: readonly { name: string; description?: string; required?: boolean }[];
}

export interface McpDocsInput {
  /** `{base}`. */
  base: string;
  protocolVersions: readonly string[];
  tools: readonly McpToolDoc[];
  resources: readonly McpResourceDoc[];
  prompts: readonly McpPromptDoc[];
}

/** The server's key in the copy-paste configuration for an MCP host. */
const SERVER_KEY = 'product-discovery';

/** The tool definitions as `tools/list` shows them: descriptions for these facts, JSON Schema 2020-12. */
export function describeTools<Shapes>(
  tools: readonly {
    name: string;
    title: string;
    description: (facts: Product) => string;
    input: (shapes: Shapes) => v.GenericSchema;
    output: (shapes: Shapes, facts: Product) => v.GenericSchema;
  }[],
  facts: Product,
  /** What the tools pick their schemas from. */
  shapes: Shapes,
): McpToolDoc[] {
  const schema = (s: v.GenericSchema) => toJsonSchema(s, { target: 'draft-2020-12' }) as JsonSchema;
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description(facts),
    inputSchema: schema(tool.input(shapes)),
    outputSchema: schema(tool.output(shapes, facts)),
  }));
}

const cell = (text = '') => inline(text).replace(/\|/g, '\\|');
const code = (text: string) => `\`${text}\``;
const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
/** A block a reader opens when wanted (HTML that CommonMark passes through; the Markdown inside is still read). */
const folded = (summary: string, body: string) => `<details><summary>${summary}</summary>\n\n${body}\n\n</details>`;

/** One line per property of an object schema: name, required or not, type and limits, description. */
function argumentLines(schema: JsonSchema): string[] {
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const facts = [
      required.has(name) ? 'required' : 'optional',
      property.enum ? `one of ${property.enum.map(String).map(code).join(', ')}` : property.type,
      property.minLength !== undefined || property.maxLength !== undefined
        ? `${property.minLength ?? 0} to ${property.maxLength ?? '∞'} characters`
        : undefined,
    ].filter(Boolean);
    return `- ${code(name)} (${facts.join(', ')})${property.description ? `: ${inline(property.description)}` : ''}`;
  });
}

function toolSection(tool: McpToolDoc): string {
  const args = argumentLines(tool.inputSchema);
  return [
    `##### ${code(tool.name)}: ${inline(tool.title)}`,
    inline(tool.description),
    `Arguments: ${args.length === 0 ? 'none (call it with `{}`).' : `\n\n${args.join('\n')}`}`,
    folded('Input schema', json(tool.inputSchema)),
    folded("Output schema: the result's <code>structuredContent</code> (the same JSON comes as text content too)", json(tool.outputSchema)),
  ].join('\n\n');
}

/** Text ending in a full stop, unless it ends in punctuation already. */
const sentence = (text: string) => (/[.!?:]$/.test(text) ? text : `${text}.`);

function promptLine(prompt: McpPromptDoc): string {
  const args = (prompt.arguments ?? []).map(
    (arg) => `${code(arg.name)} (${arg.required ? 'required' : 'optional'})${arg.description ? `: ${inline(arg.description)}` : ''}`,
  );
  const title = prompt.title ? `: ${inline(prompt.title)}` : '';
  const description = prompt.description ? ` ${sentence(inline(prompt.description))}` : '';
  return `- ${code(prompt.name)}${sentence(title)}${description} Arguments: ${sentence(args.length ? args.join('; ') : 'none')}`;
}

export function mcpMarkdown({ base, protocolVersions, tools, resources, prompts }: McpDocsInput): string {
  const url = `${base}${MCP_PATH}`;
  const [current, ...older] = protocolVersions;
  const config = { mcpServers: { [SERVER_KEY]: { type: 'http', url } } };
  return [
    `Connect an MCP client to **${url}**: Streamable HTTP, stateless (no session: any instance answers any request), ` +
      `JSON responses, no credentials. Protocol revisions: ${code(current!)} (stateless by design, \`server/discover\`)` +
      (older.length ? ` and ${older.map(code).join(', ')} (with the \`initialize\` handshake).` : '.') +
      ' GET and DELETE answer 405.',
    '#### Add it to an MCP host',
    'A host that takes a remote server by URL (a `mcpServers` configuration file):',
    json(config),
    '#### Tools',
    `${tools.length} tools, all read-only (\`readOnlyHint: true\`, \`destructiveHint: false\`, \`idempotentHint: true\`, ` +
      '`openWorldHint: false`). Bad arguments give a result with `isError: true` that says what to fix.',
    ...tools.map(toolSection),
    '#### Resources',
    '`resources/read` of a URI returns exactly the bytes the same URL serves over HTTP.',
    [
      '| URI | Name | Type | What it is |',
      '|---|---|---|---|',
      ...resources.map((r) => `| ${cell(r.uri)} | ${code(r.name)} | ${cell(r.mimeType)} | ${cell(r.description)} |`),
    ].join('\n'),
    '#### Prompts',
    prompts.length ? prompts.map(promptLine).join('\n') : 'None.',
  ].join('\n\n');
}
