/**
 * Every served text is true for the product whose facts are loaded: a product whose start options need
 * no approval gets no sentence about approvals (llms.txt, llms-full.txt, the skill, the MCP instructions,
 * the OpenAPI document's rules), and the resource tool names only the kinds the facts have.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildLlmsFullText } from '../../src/discovery/llms-full.ts';
import { buildLlmsText } from '../../src/discovery/llms.ts';
import { buildSkillMarkdown } from '../../src/discovery/skill.ts';
import { AGENT_APPROVAL_RULE, rulesParagraph } from '../../src/facts/product-rules.ts';
import { TOOLS } from '../../src/mcp/tools.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';
import { frame } from '../support/mcp.ts';

afterAll(closeHandlers);

/** The sample with no action needing approval and no start option that needs one. */
function approvalFree() {
  const facts = sampleFacts();
  delete facts.product.actionsNeedingApproval;
  facts.startOptions = facts.startOptions.filter((option) => !option.requiresHumanApproval);
  return facts;
}

const APPROVAL = /approv/i;

describe("the approval sentences, for a product whose start options need no person's approval", () => {
  const facts = approvalFree();

  it.each([
    ['llms.txt', () => buildLlmsText({ base: BASE, facts, docsPage: true, mcp: { toolNames: ['search'] } })],
    ['the skill', () => buildSkillMarkdown(BASE, facts, TOOLS)],
    ["the OpenAPI document's rules", () => rulesParagraph(facts)],
  ])('are absent from %s', (_, build) => {
    const text = build();
    expect(text).not.toContain(AGENT_APPROVAL_RULE);
    // What remains about approval is each option's own line: "Needs no approval."
    expect(text.replace(/Needs no approval\./g, '')).not.toMatch(APPROVAL);
  });

  it('are absent from llms-full.txt but for the options’ own lines', () => {
    const text = buildLlmsFullText({ base: BASE, facts, docsPage: true, mcp: { toolNames: ['search'] } });
    expect(text).not.toContain(AGENT_APPROVAL_RULE);
    expect(text.replace(/- Approval: Needs no approval\./g, '')).not.toMatch(APPROVAL);
  });

  it('are absent from the MCP instructions', async () => {
    const handler = await makeHandler({ facts });
    const answer = await (await handler(get('/mcp', { method: 'POST', ...frame('modern', 'server/discover') }))).json();
    expect(answer.result.instructions).not.toMatch(/requiresHumanApproval|approv/i);
  });

  it("are absent from the tools' descriptions", () => {
    for (const tool of TOOLS.filter((tool) => tool.name !== 'list_start_options'))
      expect(tool.description(facts), tool.name).not.toMatch(APPROVAL);
  });

  it('are there, the agent rule included, while a start option needs approval', () => {
    const sample = sampleFacts();
    for (const text of [
      buildLlmsText({ base: BASE, facts: sample, docsPage: true, mcp: { toolNames: ['search'] } }),
      buildSkillMarkdown(BASE, sample, TOOLS),
      rulesParagraph(sample),
    ])
      expect(text).toContain(AGENT_APPROVAL_RULE);
  });
});

describe('list_public_resources', () => {
  const describeFor = (facts: ReturnType<typeof sampleFacts>) =>
    TOOLS.find((tool) => tool.name === 'list_public_resources')!.description(facts);

  it('names only the kinds of resource the facts have', () => {
    const facts = sampleFacts();
    facts.resources = facts.resources.filter((resource) => ['website', 'docs', 'openapi'].includes(resource.kind));
    const text = describeFor(facts);
    expect(text).toContain('(website, docs and the OpenAPI document)');
    for (const absent of ['pricing', 'status', 'support', 'terms', 'privacy', 'MCP endpoint']) expect(text).not.toContain(absent);
  });

  it('names each kind once, however many resources have it', () => {
    const facts = sampleFacts();
    facts.resources = [facts.resources[1]!, { ...facts.resources[1]!, id: 'api-docs' }];
    expect(describeFor(facts)).toContain('public resources (docs),');
  });
});
