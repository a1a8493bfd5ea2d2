/**
 * @module Every valibot schema a served body or an MCP tool is described by, one namespace per group.
 * The route table and the tools name their schemas through it (`BodyOf`, `Tool.input`), so the
 * schemas are built only by what describes the bodies (the OpenAPI document, the facts file's JSON
 * Schema, the MCP server), loaded when first needed: a start builds none of them.
 */
import type * as v from 'valibot';

export * as facts from '../facts/schema.ts';
export * as answers from './schemas.ts';
export * as discovery from '../discovery/schemas.ts';
export * as mcp from '../mcp/schemas.ts';

/** The namespaces above, handed to whatever picks a schema from them. */
export type Shapes = typeof import('./shapes.ts');

/** A body's schema, picked from the shapes when a document describes it. */
export type BodyOf = (shapes: Shapes) => v.GenericSchema;
