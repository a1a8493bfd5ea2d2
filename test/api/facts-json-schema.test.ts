/**
 * The facts file's JSON Schema, generated from the schema start-up checks with: ajv (draft 2020-12,
 * with formats) accepts what start-up serves and refuses each bad file a JSON Schema can describe.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { StartupError } from '../../src/util/startup-error.ts';
import { checkFacts } from '../../src/facts/check.ts';
import { factsJsonSchema } from '../../src/api/facts-json-schema.ts';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const schema = factsJsonSchema('https://api.example.com');
const validate = ajv.compile(schema);

const changed = (change: (facts: any) => void) => {
  const facts = structuredClone(sample) as any;
  change(facts);
  return facts;
};

describe('factsJsonSchema', () => {
  it('is a draft 2020-12 schema with the $id of the path the service serves it at', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('https://api.example.com/schemas/facts.json');
    expect(factsJsonSchema()).not.toHaveProperty('$id');
  });

  it('accepts the shipped sample, with or without a top-level $schema', () => {
    expect(validate(sample), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ $schema: 'https://api.example.com/schemas/facts.json', ...sample }), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('refuses unknown members in every object, as start-up does', () => {
    const objects: string[] = [];
    const visit = (node: unknown, at: string) => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      if (record.type === 'object') objects.push(at);
      if (record.type === 'object') expect(record.additionalProperties, at).toBe(false);
      for (const [key, value] of Object.entries(record)) visit(value, `${at}/${key}`);
    };
    visit(schema, '#');
    expect(objects).toEqual([
      '#',
      '#/properties/product',
      '#/properties/product/properties/actionsNeedingApproval/items',
      '#/properties/product/properties/contact',
      '#/properties/product/properties/logo',
      '#/properties/resources/items',
      '#/properties/startOptions/items',
    ]);
  });

  it.each([
    [
      'a misspelt key',
      (f: any) => ((f.product.reviewdOn = f.product.reviewedOn), delete f.product.reviewedOn),
      '/product',
      'additionalProperty',
      'reviewdOn',
    ],
    ['an unknown member of a resource', (f: any) => (f.resources[2].secretNote = 'x'), '/resources/2', 'additionalProperty', 'secretNote'],
    ['a $schema member below the top level', (f: any) => (f.product.$schema = 'x'), '/product', 'additionalProperty', '$schema'],
    ['a missing field', (f: any) => delete f.startOptions[0].title, '/startOptions/0', 'missingProperty', 'title'],
    [
      'an approval action without its reason',
      (f: any) => delete f.product.actionsNeedingApproval[0].reason,
      '/product/actionsNeedingApproval/0',
      'missingProperty',
      'reason',
    ],
    ['a date that does not exist', (f: any) => (f.product.reviewedOn = '2026-02-31'), '/product/reviewedOn', 'format', 'date'],
    ['a blank name', (f: any) => (f.product.name = '  '), '/product/name', 'pattern', '\\S'],
    ['an unknown resource kind', (f: any) => (f.resources[0].kind = 'blog'), '/resources/0/kind', 'allowedValues', undefined],
    ['a relative URL', (f: any) => (f.resources[1].url = '/docs'), '/resources/1/url', 'format', 'uri'],
    ['an empty list', (f: any) => (f.startOptions = []), '/startOptions', 'limit', 1],
  ])('refuses %s, as start-up does', (_, change, instancePath, param, value) => {
    const facts = changed(change);
    expect(() => checkFacts('facts.json', facts)).toThrow(StartupError);
    expect(validate(facts)).toBe(false);
    const error = validate.errors!.find((candidate) => candidate.instancePath === instancePath && param in candidate.params);
    expect(error, ajv.errorsText(validate.errors)).toBeDefined();
    if (value !== undefined) expect(error!.params[param]).toBe(value);
  });
});
