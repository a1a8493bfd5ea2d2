/**
 * @module The facts file's JSON Schema (draft 2020-12), generated from the FactsFile schema that
 * checks the file at start-up, for editors and CI. It is as strict as start-up: every object refuses
 * members it does not name (the valibot response schemas are open, so that v1 can grow by adding).
 * Checks that a JSON Schema cannot say (duplicate ids, credentials in URLs) stay with start-up.
 */
import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import { FACTS_SCHEMA_PATH } from '../route.ts';
import { FactsFile, servedSchemas, type Product } from '../facts/schema.ts';

/**
 * The JSON Schema of the facts file; with `base`, its `$id` is where that service serves it. With `facts`,
 * the schema of that product's file: v1's `createsGallery` only when those facts give it.
 */
export function factsJsonSchema(base?: string, facts?: Product): JsonSchema {
  const { $schema, ...schema } = toJsonSchema(facts ? servedSchemas(facts).FactsFile : FactsFile, {
    target: 'draft-2020-12',
    overrideSchema: ({ valibotSchema, jsonSchema }) =>
      valibotSchema.type === 'object' ? { ...jsonSchema, additionalProperties: false } : undefined,
  });
  return { $schema, ...(base === undefined ? {} : { $id: `${base}${FACTS_SCHEMA_PATH}` }), ...schema };
}
