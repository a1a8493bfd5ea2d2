/** Checks that Markdown made from the facts writes out every one of them. */
import { expect } from 'vitest';
import type { Product } from '../../src/facts/schema.ts';

/** Every string a facts file holds, as Markdown shows it (on one line). */
export function everyText(facts: Product): string[] {
  const texts: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') texts.push(value.replace(/\s+/g, ' ').trim());
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(facts);
  return texts;
}

/** Each start option's section (from its H3 to the next heading), with its yes/no facts and why it needs approval. */
export function expectStartOptions(markdown: string, facts: Product) {
  for (const option of facts.startOptions) {
    const start = markdown.indexOf(`### ${option.title}\n`);
    expect(start, option.title).toBeGreaterThanOrEqual(0);
    const next = markdown.slice(start + 4).search(/^#{1,3} /m);
    const section = markdown.slice(start, next < 0 ? undefined : start + 4 + next);
    expect(section).toContain(`Id: ${option.id}`);
    expect(section).toContain(`URL: ${option.url}`);
    // v1's flag, written only for the facts that give it.
    if (option.createsGallery === undefined) expect(section).not.toMatch(/creates a/i);
    else expect(section).toContain(`Creates a gallery: ${option.createsGallery ? 'yes' : 'no'}`);
    expect(section).toContain(option.requiresHumanApproval ? "Approval: Needs a person's approval first" : 'Approval: Needs no approval.');
    for (const id of option.performs ?? []) {
      const action = facts.product.actionsNeedingApproval!.find((entry) => entry.id === id)!;
      expect(section).toContain(`${action.action}, because ${action.reason}`);
    }
  }
}
