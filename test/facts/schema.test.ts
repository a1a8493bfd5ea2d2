import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { toJsonSchema } from '@valibot/to-json-schema';
import { ApiIndex } from '../../src/contract/schemas.ts';
import { legacyFlagOf } from '../../src/facts/legacy-flag.ts';
import { Product, Resource, servedSchemas, StartOption } from '../../src/facts/schema.ts';
import { ListResourcesInput, NoInput } from '../../src/mcp/schemas.ts';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };

const resource = { kind: 'docs', title: 'Documentation', url: 'https://docs.example.com/', description: 'Guides.' };

describe('the schemas', () => {
  it('take the shipped sample as the product body', () => {
    expect(v.safeParse(Product, sample).success).toBe(true);
  });

  it('let a response object grow by adding fields (open objects, not strict)', () => {
    const index = { name: 'x', apiVersion: 'v1', description: 'y', links: {}, mcp: {} };
    const issues = v.safeParse(ApiIndex, { ...index, addedLater: true }).issues ?? [];
    expect(issues.some((issue) => issue.message.includes('addedLater'))).toBe(false);
  });

  it('give a resource an optional slug id, and a start option a required one', () => {
    expect(v.safeParse(Resource, resource).success).toBe(true);
    expect(v.safeParse(Resource, { ...resource, id: 'guides' }).success).toBe(true);
    expect(v.safeParse(Resource, { ...resource, id: 'Guides Here' }).issues?.[0]?.message).toBe(
      'must be a lowercase slug such as read-the-docs',
    );
    const { id: _, ...withoutId } = sample.startOptions[0]!;
    expect(v.safeParse(StartOption, withoutId).success).toBe(false);
  });

  it('refuse unknown tool arguments with a message that says what to send', () => {
    expect(v.safeParse(NoInput, {}).success).toBe(true);
    expect(v.safeParse(NoInput, 'none').issues?.[0]?.message).toBe(
      'the arguments must be a JSON object: this tool takes no arguments; call it with {}',
    );
    expect(v.safeParse(NoInput, { extra: 1 }).issues?.[0]?.message).toContain('this tool takes no arguments');
    expect(v.safeParse(ListResourcesInput, { kind: 'docs' }).success).toBe(true);
    expect(v.safeParse(ListResourcesInput, { kinds: 'docs' }).issues?.[0]?.message).toContain('only the optional argument "kind"');
  });
});

describe("v1's createsGallery in the schemas served for a set of facts", () => {
  const withFlags = (...flags: (boolean | undefined)[]) => ({
    startOptions: flags.map((createsGallery) => (createsGallery === undefined ? {} : { createsGallery })),
  });
  const startOption = (facts: ReturnType<typeof withFlags>) =>
    toJsonSchema(servedSchemas(facts).StartOption, { target: 'draft-2020-12' }) as { properties: object; required: string[] };

  it.each([
    ['every start option gives it: required, as in v1', withFlags(false, true), 'required', true, true],
    ['some do: optional', withFlags(undefined, true), 'optional', true, false],
    ['none does: not there at all', withFlags(undefined, undefined), 'absent', false, false],
  ])('%s', (_, facts, flag, listed, required) => {
    expect(legacyFlagOf(facts)).toBe(flag);
    const schema = startOption(facts);
    expect(Object.keys(schema.properties).includes('createsGallery')).toBe(listed);
    expect(schema.required.includes('createsGallery')).toBe(required);
  });

  it('keeps it optional in the facts file, for every product', () => {
    const { createsGallery: _, ...withoutFlag } = sample.startOptions[0]!;
    expect(v.safeParse(StartOption, withoutFlag).success).toBe(true);
    expect(v.safeParse(StartOption, sample.startOptions[0]).success).toBe(true);
  });
});
