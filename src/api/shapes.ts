/**
 * @module Every valibot schema a served body is described by, one namespace per group. The route
 * table names a body's schema through them (route.ts `BodyOf`), so the schemas are built only by what
 * describes the bodies (the OpenAPI document and its components), loaded when first needed: a start
 * builds none of them. route.ts declares `Shapes` empty and this module fills it in, so that what a
 * route declares imports no schema.
 */
import * as facts from '../facts/schema.ts';
import * as answers from '../contract/schemas.ts';
import * as discovery from '../discovery/schemas.ts';
import * as mcp from '../mcp/schemas.ts';

export const shapes = { facts, answers, discovery, mcp };

declare module '../route.ts' {
  interface Shapes {
    facts: typeof facts;
    answers: typeof answers;
    discovery: typeof discovery;
    mcp: typeof mcp;
  }
}
