import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiIndex, ListResourcesInput, NoInput, Product, Resource, StartOption } from '../src/schemas.ts';
import sample from '../src/sample-facts.json' with { type: 'json' };

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
    expect(v.safeParse(Resource, { ...resource, id: 'Guides Here' }).issues?.[0]?.message).toBe('must be a lowercase slug such as read-the-docs');
    const { id: _, ...withoutId } = sample.startOptions[0]!;
    expect(v.safeParse(StartOption, withoutId).success).toBe(false);
  });

  it('refuse unknown tool arguments with a message that says what to send', () => {
    expect(v.safeParse(NoInput, {}).success).toBe(true);
    expect(v.safeParse(NoInput, 'none').issues?.[0]?.message).toBe('the arguments must be a JSON object: this tool takes no arguments; call it with {}');
    expect(v.safeParse(NoInput, { extra: 1 }).issues?.[0]?.message).toContain('this tool takes no arguments');
    expect(v.safeParse(ListResourcesInput, { kind: 'docs' }).success).toBe(true);
    expect(v.safeParse(ListResourcesInput, { kinds: 'docs' }).issues?.[0]?.message).toContain('only the optional argument "kind"');
  });

});
