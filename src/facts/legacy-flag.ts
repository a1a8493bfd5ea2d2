/**
 * @module v1's `createsGallery`, how a set of facts uses it: apart from the schemas (schema.ts), which
 * shape what they serve by it, so that the MCP tools read it without building any schema.
 */

/**
 * How v1's `createsGallery` appears in a schema. It is the sample product's own flag, kept for the facts
 * that use it: a facts file may leave it out, and the schemas a service serves (OpenAPI, MCP) carry it
 * as v1 did when every start option has it, as optional when some do, and not at all when none do.
 */
export type LegacyFlag = 'required' | 'optional' | 'absent';

/** How a set of facts uses v1's `createsGallery`: on every start option, on some, or on none. */
export function legacyFlagOf(facts: { startOptions: readonly { createsGallery?: boolean }[] }): LegacyFlag {
  const given = facts.startOptions.filter((option) => option.createsGallery !== undefined).length;
  return given === 0 ? 'absent' : given === facts.startOptions.length ? 'required' : 'optional';
}
