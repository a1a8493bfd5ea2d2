/**
 * The facts as Markdown (the product's Markdown answer; llms-full.txt's body): every fact of the
 * JSON body is written out, each start option with whether it creates a gallery and its approval rule.
 */
import { describe, expect, it } from 'vitest';
import { productMarkdown } from '../../src/discovery/markdown.ts';
import { everyText, expectStartOptions } from '../support/facts-markdown.ts';
import { sampleFacts } from '../support/handler.ts';

describe('productMarkdown', () => {
  it('writes out every fact of the JSON body', () => {
    const facts = sampleFacts();
    const markdown = productMarkdown({ facts });
    for (const text of everyText(facts)) expect(markdown, text).toContain(text);
    expectStartOptions(markdown, facts);
  });

  it('starts with the product name and its summary, then the sections', () => {
    const facts = sampleFacts();
    const lines = productMarkdown({ facts }).split('\n');
    expect(lines[0]).toBe(`# ${facts.product.name}`);
    expect(lines[2]).toBe(`> ${facts.product.summary}`);
    expect(lines.filter((line) => line.startsWith('## '))).toEqual(['## Overview', '## Resources', '## Start options']);
  });

  it('follows the facts: a changed approval rule, a resource id, a multi-line description', () => {
    const facts = sampleFacts();
    facts.startOptions[0]!.requiresHumanApproval = true;
    facts.resources[0]!.id = 'home';
    facts.resources[1]!.description = 'First line.\nSecond line.';
    const markdown = productMarkdown({ facts });
    expectStartOptions(markdown, facts);
    expect(markdown).toContain('id: home');
    expect(markdown).toContain('First line. Second line.');
  });
});
