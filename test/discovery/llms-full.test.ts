/**
 * llms-full.txt: llms.txt's layout (H1, blockquote, paragraph) with every fact written out, then
 * where the API is; the docs page only while it is on. llms.txt links to it under "Optional".
 */
import { describe, expect, it } from 'vitest';
import { buildLlmsFullText } from '../../src/discovery/llms-full.ts';
import { buildLlmsText } from '../../src/discovery/llms.ts';
import { TOOL_NAMES } from '../../src/mcp/tools.ts';
import { BASE, sampleFacts } from '../support/handler.ts';
import { everyText, expectStartOptions } from '../support/facts-markdown.ts';

describe('buildLlmsFullText', () => {
  const facts = sampleFacts();
  const text = buildLlmsFullText({ base: BASE, facts, docsPage: true, mcp: { toolNames: TOOL_NAMES } });

  it('opens as llms.txt does: the name, the summary, what the API is', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe(`# ${facts.product.name}`);
    expect(lines[2]).toBe(`> ${facts.product.summary}`);
    expect(lines[4]).toMatch(/read-only.*no credentials/);
  });

  it('writes out every fact, each start option with its approval rule', () => {
    for (const fact of everyText(facts)) expect(text, fact).toContain(fact);
    expectStartOptions(text, facts);
  });

  it('ends with where the API is, the docs page only while it is on', () => {
    const api = text.slice(text.indexOf('\n## API\n'));
    for (const path of [
      '/api/v1',
      '/api/v1/product',
      '/openapi.json',
      '/docs',
      '/mcp',
      '/mcp/server-card',
      '/.well-known/api-catalog',
      '/llms.txt',
    ]) {
      expect(api).toContain(`](${BASE}${path})`);
    }
    expect(buildLlmsFullText({ base: BASE, facts, docsPage: false, mcp: { toolNames: TOOL_NAMES } })).not.toContain(`${BASE}/docs`);
  });
});

describe('buildLlmsText with the front door', () => {
  const facts = sampleFacts();
  const optional = (text: string) => text.slice(text.indexOf('## Optional'));

  it('links llms-full.txt first under Optional, and the docs page under API while it is on', () => {
    const on = buildLlmsText({ base: BASE, facts, docsPage: true, mcp: { toolNames: TOOL_NAMES } });
    expect(optional(on).split('\n')[2]).toMatch(new RegExp(`^- \\[llms-full\\.txt\\]\\(${BASE}/llms-full\\.txt\\): \\S`));
    expect(on.slice(on.indexOf('## API'), on.indexOf('## Resources'))).toContain(`](${BASE}/docs)`);
    const off = buildLlmsText({ base: BASE, facts, docsPage: false, mcp: { toolNames: TOOL_NAMES } });
    expect(optional(off)).toContain(`](${BASE}/llms-full.txt)`);
    expect(off).not.toContain(`${BASE}/docs`);
  });
});
