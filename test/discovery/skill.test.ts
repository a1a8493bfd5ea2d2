/**
 * The Agent Skill through the handler: its YAML front matter (parsed by `yaml` from npm) names it and
 * describes the product; the same bytes at /skill.md and at the agent-skills well-known path; the
 * discovery index (v0.2.0) lists it with the SHA-256 digest of exactly those bytes; it follows the
 * facts on a reload.
 */
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { SKILL_INDEX_SCHEMA } from '../../src/discovery/skill.ts';
import { SkillIndex } from '../../src/discovery/schemas.ts';
import type { Handler } from '../../src/handler.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';

const WELL_KNOWN = '/.well-known/agent-skills/product-discovery/SKILL.md';
const bytesOf = async (answer: Response) => new Uint8Array(await answer.arrayBuffer());
const sha256 = async (bytes: Uint8Array<ArrayBuffer>) =>
  `sha256:${[...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;

/** agentskills.io: the front matter between the first two `---` lines, then the Markdown body. */
function frontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  expect(match, 'front matter').not.toBeNull();
  return { data: parseYaml(match![1]!), body: match![2]! };
}

let handler: Handler;
beforeAll(async () => {
  handler = await makeHandler();
});
afterAll(closeHandlers);

describe('the Agent Skill', () => {
  it('is a SKILL.md whose YAML front matter names it and describes the product, as text/markdown', async () => {
    const answer = await handler(get('/skill.md'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
    const { data, body } = frontMatter(await answer.text());
    expect(Object.keys(data).sort()).toEqual(['description', 'name']);
    expect(data.name).toBe('product-discovery');
    expect(data.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(String(data.description)).toContain(sampleFacts().product.name);
    expect(String(data.description).length).toBeLessThanOrEqual(1024);
    for (const option of sampleFacts().startOptions) expect(body).toContain(option.url);
    expect(body).toContain(`${BASE}/mcp`);
    expect(body).toContain('Retry-After');
  });

  it('is the same bytes at the well-known path', async () => {
    const [short, wellKnown] = [await handler(get('/skill.md')), await handler(get(WELL_KNOWN))];
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await bytesOf(wellKnown)).toEqual(await bytesOf(short));
  });

  it('is listed by the discovery index with the digest of the served bytes', async () => {
    const answer = await handler(get('/.well-known/agent-skills/index.json'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const index = v.parse(SkillIndex, await answer.json());
    expect(index.$schema).toBe(SKILL_INDEX_SCHEMA);
    expect(index.skills).toHaveLength(1);
    const [entry] = index.skills;
    const served = await bytesOf(await handler(new Request(entry!.url)));
    expect(entry).toMatchObject({ name: 'product-discovery', type: 'skill-md', url: `${BASE}${WELL_KNOWN}` });
    expect(entry!.digest).toBe(await sha256(served));
    expect(entry!.description).toBe(frontMatter(new TextDecoder().decode(served)).data.description);
  });

  it('follows the facts: a reload changes the bytes and the digest together', async () => {
    const reloaded = await makeHandler();
    const facts = sampleFacts();
    facts.startOptions[0]!.title = 'Read the quick start';
    await reloaded.reload(facts);
    const text = await (await reloaded(get('/skill.md'))).text();
    expect(text).toContain('Read the quick start');
    const index = await (await reloaded(get('/.well-known/agent-skills/index.json'))).json();
    expect(index.skills[0].digest).toBe(await sha256(new TextEncoder().encode(text)));
  });

  it('serves no other skill name', async () => {
    expect((await handler(get('/.well-known/agent-skills/other/SKILL.md'))).status).toBe(404);
  });
});
