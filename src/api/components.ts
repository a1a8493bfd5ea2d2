/**
 * @module The OpenAPI document's `components.schemas`: every named shape (a valibot schema with a
 * `v.title`) the route table declares, and the named shapes inside them, as JSON Schema draft
 * 2020-12 with references between them. Adding a route with a new shape adds its component.
 */
import * as v from 'valibot';
import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import { JsonRpcBatch, JsonRpcBatchResponse, JsonRpcMessage } from '../mcp/schemas.ts';
import type { Route } from '../route.ts';
import { servedSchemas, type Product } from '../facts/schema.ts';
import { Problem } from '../contract/schemas.ts';
import { shapes } from './shapes.ts';

/** What the document names besides the routes' bodies: the MCP request bodies and the problem body of every refusal. */
const NAMED_BY_THE_DOCUMENT: readonly v.GenericSchema[] = [Problem, JsonRpcMessage, JsonRpcBatch, JsonRpcBatchResponse];

/** A schema's `v.title`: its component's name, when it is a named shape. */
export const titleOf = (schema: v.GenericSchema): string | undefined =>
  v.getTitle(schema as v.SchemaWithPipe<[v.GenericSchema, v.TitleAction<unknown, string>]>);

/** The parts of a valibot schema that are schemas themselves (object entries, array items, union options, wrapped ones). */
function partsOf(schema: v.GenericSchema): v.GenericSchema[] {
  const { entries, item, wrapped, options, items, rest } = schema as unknown as Record<string, unknown>;
  const parts = [
    ...(entries ? Object.values(entries as object) : []),
    item,
    wrapped,
    rest,
    ...[options, items].flatMap((list) => (Array.isArray(list) ? list : [])),
  ];
  return parts.filter((part): part is v.GenericSchema => (part as { kind?: unknown } | undefined)?.kind === 'schema');
}

/**
 * Every named shape (one with a `v.title`) the document refers to, by name: the bodies the route
 * table declares and the named shapes inside them, then those the document names itself.
 */
export function componentsOf(routes: readonly Route[]): Map<string, v.GenericSchema> {
  const named = new Map<string, v.GenericSchema>();
  const visit = (schema: v.GenericSchema) => {
    const name = titleOf(schema);
    if (name !== undefined && named.has(name)) return;
    if (name !== undefined) named.set(name, schema);
    for (const part of partsOf(schema)) visit(part);
  };
  for (const route of routes)
    for (const body of [route.body, ...(route.alternates ?? []).map((alternate) => alternate.body)]) visit(body(shapes));
  for (const schema of NAMED_BY_THE_DOCUMENT) visit(schema);
  return named;
}

/**
 * Gives every `const` the `type` of its value: JSON Schema does not need it, but common OpenAPI
 * tools (code generators, validating proxies) read a schema without `type` as "any".
 */
function typedConsts(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typedConsts);
  if (!node || typeof node !== 'object') return node;
  const object = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'const' ? value : typedConsts(value)]));
  if ('const' in object && !('type' in object)) {
    const value = object.const;
    object.type = value === null ? 'null' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
  }
  return object;
}

/** The components of the route table's shapes, the start option and product as these facts give them. */
export function schemaComponents(table: readonly Route[], facts: Product): Record<string, unknown> {
  // The start option's shape as these facts give it (v1's createsGallery only for the facts that use it).
  const { StartOption, Product } = servedSchemas(facts);
  const served: Record<string, v.GenericSchema> = { StartOption, Product };
  const components = [...componentsOf(table)].map(([name, schema]) => [name, served[name] ?? schema] as const);
  const defs = toJsonSchemaDefs(Object.fromEntries(components), {
    target: 'draft-2020-12',
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  });
  return typedConsts(defs) as Record<string, unknown>;
}
