/**
 * @module What a tool result must be: not an error, `structuredContent` valid against the tool's
 * output schema, and the same JSON as one text content item; and the shapes of the `search` and
 * `fetch` tools (the connector shape large hosts call: `{results: [{id, title, url}]}` and
 * `{id, title, text, url, metadata?}`).
 */
import { isDeepStrictEqual } from 'node:util';

export interface Tool {
  name: string;
  inputSchema?: { required?: string[] };
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type SchemaCheck = (schema: Record<string, unknown>, value: unknown) => string | undefined;

/** A JSON Schema 2020-12 validator with formats, loaded when the MCP checks run. */
export async function schemaChecker(): Promise<SchemaCheck> {
  const [{ Ajv2020 }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ((formats as any).default ?? formats)(ajv);
  return (schema, value) => {
    const validate = ajv.compile(schema);
    return validate(value) ? undefined : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
  };
}

/** The arguments to call a tool with, or undefined when verify cannot make them up. */
export function argumentsFor(tool: Tool, known: { query: string; id?: string }): Record<string, unknown> | undefined {
  if (tool.name === 'search') return { query: known.query };
  if (tool.name === 'fetch') return known.id === undefined ? undefined : { id: known.id };
  return (tool.inputSchema?.required ?? []).length === 0 ? {} : undefined;
}

/** Why a result breaks the contract for every tool, or undefined. */
export function resultProblem(tool: Tool, result: ToolResult, check: SchemaCheck): string | undefined {
  if (result.isError) return `${tool.name} answered isError: ${result.content?.[0]?.text ?? ''}`;
  if (!result.structuredContent) return `${tool.name} has no structuredContent`;
  if (tool.outputSchema) {
    const invalid = check(tool.outputSchema, result.structuredContent);
    if (invalid) return `${tool.name} structuredContent ${invalid}`;
  }
  const texts = (result.content ?? []).filter((item) => item.type === 'text');
  const same = texts.some((item) => {
    try {
      return isDeepStrictEqual(JSON.parse(item.text ?? ''), result.structuredContent);
    } catch {
      return false;
    }
  });
  return same ? undefined : `${tool.name} has no text content with the structuredContent's JSON`;
}

const isText = (value: unknown) => typeof value === 'string' && value.length > 0;

/** The connector shapes: one text item, whose JSON is the structuredContent of this form. */
export function connectorProblem(name: 'search' | 'fetch', result: ToolResult): string | undefined {
  if (result.content?.length !== 1 || result.content[0]!.type !== 'text')
    return `${name}: ${result.content?.length ?? 0} content items, not one text item`;
  const value = result.structuredContent as any;
  if (name === 'search') {
    if (!Array.isArray(value?.results)) return 'search: no results array';
    const bad = value.results.find((item: any) => !isText(item?.id) || !isText(item?.title) || !isText(item?.url));
    return bad ? `search: a result without id, title or url: ${JSON.stringify(bad)}` : undefined;
  }
  const lacking = ['id', 'title', 'text', 'url'].filter((key) => !isText(value?.[key]));
  if (lacking.length > 0) return `fetch: no ${lacking.join(', ')}`;
  return value.metadata === undefined || (typeof value.metadata === 'object' && value.metadata !== null)
    ? undefined
    : 'fetch: metadata is not an object';
}
