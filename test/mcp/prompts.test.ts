/**
 * The prompts (src/mcp/prompts.ts) through the endpoint in both eras: listed as `listedPrompts()`
 * says (what the OpenAPI document's MCP guide can show), their messages made from the facts, and
 * the goal bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handler.ts';
import { listedPrompts } from '../../src/mcp/prompts.ts';
import { closeHandlers, makeHandler, sampleFacts, send } from '../support/handler.ts';
import { ERAS, frame, PROMPT_NAMES, type Era } from '../support/mcp.ts';

let handler: Handler;
beforeAll(async () => {
  handler = await makeHandler();
});
afterAll(closeHandlers);

async function rpc(era: Era, method: string, params: Record<string, unknown> = {}) {
  const { headers, body } = frame(era, method, params);
  return (await send(handler, '/mcp', { method: 'POST', headers, body })).json();
}

const facts = sampleFacts();
const textOf = (result: { messages: { content: { text: string } }[] }) => result.messages.map((message) => message.content.text).join('\n');

describe.each(ERAS)('the prompts (%s era)', (era) => {
  it('are listed exactly as listedPrompts() describes them', async () => {
    const { result } = await rpc(era, 'prompts/list');
    expect(result.prompts).toEqual(listedPrompts());
    expect(result.prompts.map((prompt: { name: string }) => prompt.name)).toEqual([...PROMPT_NAMES]);
  });

  it('explain_product: user messages embedding the reviewed overview', async () => {
    const { result } = await rpc(era, 'prompts/get', { name: 'explain_product' });
    for (const message of result.messages) expect(message).toMatchObject({ role: 'user', content: { type: 'text' } });
    const text = textOf(result);
    for (const line of [facts.product.summary, ...facts.product.audiences, ...facts.product.capabilities, ...facts.product.notOffered]) {
      expect(text).toContain(line);
    }
  });

  it("plan_safe_start: the start options, those needing a person's approval named, and the goal", async () => {
    const { result } = await rpc(era, 'prompts/get', { name: 'plan_safe_start', arguments: { goal: 'deliver a wedding' } });
    const [ask, options] = result.messages.map((message: { content: { text: string } }) => message.content.text);
    expect(ask).toContain('"deliver a wedding"');
    for (const option of facts.startOptions) {
      expect(options).toContain(option.url);
      expect(ask.includes(option.title), option.title).toBe(option.requiresHumanApproval);
    }
    const { result: withoutGoal } = await rpc(era, 'prompts/get', { name: 'plan_safe_start' });
    expect(withoutGoal.messages[0].content.text).not.toContain('goal');
  });

  it('refuse a goal over 200 characters, an empty one and an unknown argument with -32602', async () => {
    for (const args of [{ goal: 'x'.repeat(201) }, { goal: '' }, { colour: 'blue' }]) {
      const { error } = await rpc(era, 'prompts/get', { name: 'plan_safe_start', arguments: args });
      expect(error?.code, JSON.stringify(args).slice(0, 30)).toBe(-32602);
    }
    expect((await rpc(era, 'prompts/get', { name: 'plan_safe_start', arguments: { goal: 'x'.repeat(200) } })).result).toBeDefined();
  });
});
