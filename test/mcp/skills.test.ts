/**
 * The Agent Skill over MCP (the Skills extension, SEP-2640, through the SDK's own SkillsExtension):
 * skills/list and skills/get through both official clients, the 2026-07-28 one with the SDK's own
 * SkillsClient (which checks size, digest and front matter), the 2025-era one by method name; the
 * bytes read over MCP are the bytes GET /skill.md serves, with public cache hints.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { Handler } from '../../src/handler.ts';
import { BASE, closeHandlers, makeHandler } from '../support/handler.ts';

const SKILL_URI = 'skill://product-discovery/SKILL.md';
const sha256 = async (bytes: Uint8Array<ArrayBuffer>) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((byte) => byte.toString(16).padStart(2, '0')).join('');

let handler: Handler;
let served: Uint8Array<ArrayBuffer>;
const viaHandler = (input: string | URL | Request, init?: RequestInit) => handler(new Request(input, init));

beforeAll(async () => {
  handler = await makeHandler();
  served = new Uint8Array(await (await handler(new Request(`${BASE}/skill.md`))).arrayBuffer());
});
afterAll(closeHandlers);

describe('the skill through @modelcontextprotocol/client (revision 2026-07-28) and its SkillsClient', () => {
  let client: ModernClient;
  let skills: SkillsClient;

  beforeAll(async () => {
    client = new ModernClient({ name: 'skills-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new ModernTransport(new URL(`${BASE}/mcp`), { fetch: viaHandler }));
    skills = new SkillsClient(client);
  });
  afterAll(() => client?.close());

  it('declares the extension', () => {
    expect(skills.supported).toBe(true);
  });

  it('lists the one skill with public cache hints, and gets it by its URI', async () => {
    const listing = await skills.list();
    expect(listing.skills.map((skill) => skill.uri)).toEqual([SKILL_URI]);
    expect(listing).toMatchObject({ cacheScope: 'public', ttlMs: 60_000 });
    const { skill, cacheScope, ttlMs } = await skills.get(SKILL_URI);
    expect(skill).toEqual(listing.skills[0]);
    expect({ cacheScope, ttlMs }).toEqual({ cacheScope: 'public', ttlMs: 60_000 });
  });

  it('reads exactly the bytes of GET /skill.md, their digest checked by the client', async () => {
    const [skill] = (await skills.list()).skills;
    const file = await skills.read(skill!);
    expect(file.verified).toBe(true);
    expect(file.bytes).toEqual(served);
    expect(file.frontmatter).toMatchObject({ name: 'product-discovery' });
    const entry = JSON.stringify(skill);
    expect(entry).toContain(await sha256(served));
  });
});

describe('the skill through @modelcontextprotocol/sdk (the 2025 era), by method name', () => {
  let client: LegacyClient;
  const anyResult = z.object({}).passthrough();

  beforeAll(async () => {
    client = new LegacyClient({ name: 'skills-test-legacy', version: '1.0.0' });
    await client.connect(new LegacyTransport(new URL(`${BASE}/mcp`), { fetch: viaHandler }));
  });
  afterAll(() => client?.close());

  it('declares the extension among the capabilities', () => {
    expect(JSON.stringify(client.getServerCapabilities())).toContain('io.modelcontextprotocol/skills');
  });

  it('answers skills/list and skills/get with the skill, and resources/read with the bytes of /skill.md', async () => {
    const listed = (await client.request({ method: 'skills/list', params: {} }, anyResult)) as { skills: { uri: string }[] };
    expect(listed.skills.map((skill) => skill.uri)).toEqual([SKILL_URI]);
    const got = (await client.request({ method: 'skills/get', params: { uri: SKILL_URI } }, anyResult)) as { skill: unknown };
    expect(got.skill).toEqual(listed.skills[0]);
    const read = await client.readResource({ uri: SKILL_URI });
    const text = (read.contents[0] as { text: string }).text;
    expect(new TextEncoder().encode(text)).toEqual(served);
  });
});
