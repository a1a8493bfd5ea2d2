/**
 * The facts as MCP resources (src/mcp/resources.ts): the product body, the OpenAPI document and
 * llms.txt, each under `{base}` at the path REST serves it, named, titled, described, typed and
 * annotated for both audiences (the product with its review date as lastModified), and carrying
 * exactly the bytes REST serves there, non-ASCII text included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../src/handler.ts';
import { describeResources, resourceInfos } from '../../src/mcp/resources.ts';
import { LLMS_PATH, OPENAPI_PATH, PRODUCT_PATH } from '../../src/route.ts';
import type { Product } from '../../src/facts/schema.ts';
import { BASE, closeHandlers, makeHandler, sampleFacts, send } from '../support/handler.ts';
import { frame } from '../support/mcp.ts';

const EXPECTED = [
  { path: PRODUCT_PATH, name: 'product', mimeType: 'application/json' },
  { path: OPENAPI_PATH, name: 'openapi', mimeType: 'application/json' },
  { path: LLMS_PATH, name: 'llms-txt', mimeType: 'text/markdown' },
];

/** The sample facts under a name that UTF-8 needs two, three and four bytes a character for. */
function nonAsciiFacts(): Product {
  const facts = sampleFacts();
  facts.product.name = 'Lumière Galleries 写真 📷';
  facts.product.summary = `${facts.product.summary} Déjà vu, naïve café — “quoted”.`;
  return facts;
}

describe('resourceInfos', () => {
  const facts = sampleFacts();

  it('lists the product, the OpenAPI document and llms.txt, each under {base} at the path REST serves it', () => {
    const infos = resourceInfos(BASE, facts);
    expect(infos.map(({ path, name, mimeType }) => ({ path, name, mimeType }))).toEqual(EXPECTED);
    for (const info of infos) expect(info.uri, info.name).toBe(`${BASE}${info.path}`);
  });

  it('follows {base}, a path prefix included', () => {
    const base = 'https://discovery.example.org/studio';
    expect(resourceInfos(base, facts).map((info) => info.uri)).toEqual(EXPECTED.map(({ path }) => `${base}${path}`));
  });

  it('gives each a name, a title naming the product where it is about it, and a description', () => {
    const infos = resourceInfos(BASE, facts);
    expect(new Set(infos.map((info) => info.name)).size).toBe(infos.length);
    for (const info of infos) {
      for (const field of ['name', 'title', 'description'] as const) expect(info[field], `${info.name} ${field}`).toMatch(/\S/);
    }
    const named = (name: string) => infos.find((info) => info.name === name)!;
    expect(named('product').title).toContain(facts.product.name);
    expect(named('llms-txt').title).toContain(facts.product.name);
  });

  it('annotates each for the user and the assistant, and the product with its review date as an ISO 8601 date-time', () => {
    const infos = resourceInfos(BASE, facts);
    for (const info of infos) expect(info.annotations.audience, info.name).toEqual(['user', 'assistant']);
    const product = infos.find((info) => info.name === 'product')!;
    expect(product.annotations.lastModified).toBe(`${facts.product.reviewedOn}T00:00:00Z`);
    expect(new Date(product.annotations.lastModified!).toISOString()).toBe(`${facts.product.reviewedOn}T00:00:00.000Z`);
    // The other documents are built at start-up, not reviewed: no date is claimed for them.
    for (const info of infos.filter((each) => each !== product)) expect(info.annotations, info.name).not.toHaveProperty('lastModified');
  });

  it('follows the facts: a new review date and a new name change the annotation and the titles', () => {
    const changed = sampleFacts();
    changed.product.reviewedOn = '2027-02-28';
    changed.product.name = 'Other Studio';
    const product = resourceInfos(BASE, changed).find((info) => info.name === 'product')!;
    expect(product.annotations.lastModified).toBe('2027-02-28T00:00:00Z');
    expect(product.title).toContain('Other Studio');
  });
});

describe('describeResources', () => {
  const facts = nonAsciiFacts();
  let handler: Handler;
  /** What REST serves at each path, as bytes. */
  const served = new Map<string, Uint8Array>();

  beforeAll(async () => {
    handler = await makeHandler({ facts });
    for (const { path } of EXPECTED) {
      const response = await send(handler, path);
      expect(response.status, path).toBe(200);
      served.set(path, new Uint8Array(await response.arrayBuffer()));
    }
    expect(new TextDecoder().decode(served.get(LLMS_PATH))).toContain('写真 📷');
  });
  afterAll(closeHandlers);

  it('asks for the body of each path once, and carries it as text that encodes to the same bytes', () => {
    const asked: string[] = [];
    const resources = describeResources(BASE, facts, (path) => (asked.push(path), served.get(path)!));
    expect(asked).toEqual(EXPECTED.map(({ path }) => path));
    for (const resource of resources) {
      const path = new URL(resource.uri).pathname;
      expect(new TextEncoder().encode(resource.text), resource.name).toEqual(served.get(path));
    }
  });

  it('describes each resource as resourceInfos does, without the path', () => {
    const resources = describeResources(BASE, facts, (path) => served.get(path)!);
    expect(resources.map(({ text: _, ...info }) => info)).toEqual(resourceInfos(BASE, facts).map(({ path: _, ...info }) => info));
  });

  it('is what resources/read answers, byte for byte the REST body, on the handler', async () => {
    for (const { path } of EXPECTED) {
      const { headers, body } = frame('modern', 'resources/read', { uri: `${BASE}${path}` });
      const answer = await (await send(handler, '/mcp', { method: 'POST', headers, body })).json();
      expect(answer.result.contents, path).toHaveLength(1);
      expect(new TextEncoder().encode(answer.result.contents[0].text), path).toEqual(served.get(path));
    }
  });
});
