/** The OpenAPI components, derived from the route table: every body and the named shapes inside it. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { componentsOf, schemaComponents } from '../../src/api/components.ts';
import { shapes } from '../../src/api/shapes.ts';
import { ROUTES } from '../../src/routes.ts';
import { sampleFacts } from '../support/handler.ts';

describe('the components, derived from the route table', () => {
  const title = (schema: v.GenericSchema) => v.getTitle(schema as v.SchemaWithPipe<[v.GenericSchema, v.TitleAction<unknown, string>]>);

  it("name every route's bodies, the named shapes inside them, and the MCP and problem bodies", () => {
    const components = componentsOf(ROUTES);
    for (const route of ROUTES)
      for (const body of [route.body, ...(route.alternates ?? []).map((alternate) => alternate.body)].map((of) => of(shapes)))
        expect(components.get(title(body)!), route.path).toBe(body);
    expect([...components.keys()]).toEqual(expect.arrayContaining(['Resource', 'StartOption', 'ApprovalAction', 'Deprecation', 'Problem']));
    expect(new Set(components.keys()).size).toBe(components.size);
  });

  it('follow the table: a route added with a new shape adds its component', () => {
    const Extra = v.pipe(v.object({ inner: v.pipe(v.string(), v.title('ExtraInner')) }), v.title('Extra'));
    const extra = { ...ROUTES[0]!, path: '/extra', body: () => Extra };
    const components = componentsOf([...ROUTES, extra]);
    expect(components.get('Extra')).toBe(Extra);
    expect(components.has('ExtraInner')).toBe(true);
    expect(componentsOf(ROUTES).has('Extra')).toBe(false);
  });
});

describe('schemaComponents', () => {
  it('gives each component as JSON Schema, referring to the others by name, each const typed', () => {
    const schemas = schemaComponents(ROUTES, sampleFacts()) as Record<string, Record<string, unknown>>;
    expect(Object.keys(schemas)).toEqual([...componentsOf(ROUTES).keys()]);
    expect(JSON.stringify(schemas.Product)).toContain('"$ref":"#/components/schemas/ProductFacts"');
    expect(JSON.stringify(schemas)).not.toMatch(/"const":[^,}]*}/);
  });
});
