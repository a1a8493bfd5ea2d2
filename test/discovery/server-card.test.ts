/**
 * /mcp/server-card against the draft's own JSON Schema (vendored in test/fixtures, see its README),
 * with the fields the contract names, and protocol revisions that /mcp really serves.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { fitText, serverCardName } from '../../src/discovery/server-card.ts';
import type { Handler } from '../../src/handler.ts';
import { BASE, closeHandlers, get, makeHandler, sampleFacts } from '../support/handler.ts';
import { frame, initializeBody, MODERN, newAjv } from '../support/mcp.ts';

const schema = JSON.parse(readFileSync(new URL('../fixtures/mcp-server-card.schema.json', import.meta.url), 'utf8'));
const ajv = newAjv();
ajv.addSchema(schema, 'server-card.schema.json');
const validateCard = ajv.getSchema('server-card.schema.json#/$defs/ServerCard')!;

async function cardOf(handle: Handler) {
  const response = await handle(get('/mcp/server-card'));
  return { response, card: await response.json() };
}

/** The protocol revision /mcp answers when asked for `version`, in that version's era. */
async function served(handle: Handler, version: string): Promise<boolean> {
  const modern = version === MODERN;
  const { headers, body } = modern
    ? frame('modern', 'server/discover')
    : { headers: { 'content-type': 'application/json', accept: 'application/json' }, body: initializeBody(version) };
  const answer = await (await handle(get('/mcp', { method: 'POST', headers, body }))).json();
  return modern ? answer.result?.supportedVersions?.includes(version) : answer.result?.protocolVersion === version;
}

describe('GET /mcp/server-card', () => {
  let handle: Handler;
  beforeAll(async () => {
    handle = await makeHandler();
  });
  afterAll(closeHandlers);

  it('validates against the draft’s JSON Schema (and the check can fail)', async () => {
    const { card } = await cardOf(handle);
    expect(validateCard(card), ajv.errorsText(validateCard.errors)).toBe(true);
    expect(validateCard({ ...card, name: 'no slash' })).toBe(false);
    expect(validateCard({ ...card, description: 'x'.repeat(101) })).toBe(false);
  });

  it('carries the contract’s fields with its media type and cache policy', async () => {
    const facts = sampleFacts();
    const { response, card } = await cardOf(handle);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(card).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'com.example.api/product-discovery',
      title: facts.product.name,
      version: pkg.version,
      websiteUrl: facts.resources.find((resource) => resource.kind === 'website')!.url,
    });
    expect(facts.product.summary.startsWith(card.description.replace(/[.…]$/, ''))).toBe(true);
    expect(card.remotes).toHaveLength(1);
    expect(card.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${BASE}/mcp` });
  });

  it('names protocol revisions that /mcp serves, as the API index does', async () => {
    const { card } = await cardOf(handle);
    const versions: string[] = card.remotes[0].supportedProtocolVersions;
    expect(versions).toContain(MODERN);
    for (const version of versions) expect(await served(handle, version), version).toBe(true);
    expect(await served(handle, '1999-01-01'), 'the check can fail').toBe(false);
    const index = await (await handle(get('/api/v1'))).json();
    expect(versions).toEqual(index.mcp.protocolVersions);
  });

  it('stays valid for facts with a long summary and no website', async () => {
    const facts = sampleFacts();
    facts.product.summary = 'word '.repeat(60).trim();
    facts.resources = facts.resources.filter((resource) => resource.kind !== 'website');
    const { card } = await cardOf(await makeHandler({ facts }));
    expect(validateCard(card), ajv.errorsText(validateCard.errors)).toBe(true);
    expect(card.websiteUrl).toBeUndefined();
  });
});

describe('server card helpers', () => {
  it('reverses the host into the name', () => {
    expect(serverCardName('https://discovery.example.com')).toBe('com.example.discovery/product-discovery');
    expect(serverCardName('https://Example.COM')).toBe('com.example/product-discovery');
  });

  it('names an IP-address or localhost host localhost, not reversed octets', () => {
    expect(serverCardName('http://127.0.0.1:8787')).toBe('localhost/product-discovery');
    expect(serverCardName('http://192.0.2.10')).toBe('localhost/product-discovery');
    expect(serverCardName('http://[::1]:8787')).toBe('localhost/product-discovery');
    expect(serverCardName('http://[2001:db8::7]')).toBe('localhost/product-discovery');
    expect(serverCardName('http://localhost:8787')).toBe('localhost/product-discovery');
    expect(serverCardName('http://1.2.3.example.com')).toBe('com.example.3.2.1/product-discovery');
  });

  it('keeps short text, cuts long text at its first clause or else at a word', () => {
    expect(fitText('Short.')).toBe('Short.');
    expect(fitText(`A first clause: ${'then much more '.repeat(10)}`)).toBe('A first clause.');
    const cut = fitText('word '.repeat(60));
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/^(word )+word…$/);
  });
});

describe("the product's logo in the server card", () => {
  it('is its icons when the facts give one, valid against the draft, and absent when they do not', async () => {
    const facts = sampleFacts();
    facts.product.logo = { url: 'https://www.example.com/logo.png', mediaType: 'image/png', sizes: ['512x512'] };
    const { card } = await cardOf(await makeHandler({ facts }));
    expect(card.icons).toEqual([{ src: 'https://www.example.com/logo.png', mimeType: 'image/png', sizes: ['512x512'] }]);
    expect(validateCard(card), ajv.errorsText(validateCard.errors)).toBe(true);
    expect((await cardOf(await makeHandler())).card).not.toHaveProperty('icons');
  });
});
