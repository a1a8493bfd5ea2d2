/**
 * Any product, not only the sample's galleries: every product-specific word comes from the facts.
 * For a second, unrelated product (test/fixtures/notebook-facts.json, research notebooks), everything
 * the service serves (each GET path of the route table in each representation, and every MCP answer
 * in both eras) names no gallery and states that product's own privacy and approval rules; the one
 * approval rule start-up enforces refuses an approval-required action marked as needing none, for
 * both facts files, naming the field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkFacts, parseFacts } from '../../src/facts/check.ts';
import type { Handler } from '../../src/handler.ts';
import {
  approvalNeeds,
  approvalRule,
  listed,
  privacySentence,
  privateContractSentence,
  rulesParagraph,
} from '../../src/facts/product-rules.ts';
import { pathsOf } from '../../src/route.ts';
import { ROUTES } from '../../src/routes.ts';
import type { Product } from '../../src/facts/schema.ts';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };
import notebook from '../fixtures/notebook-facts.json' with { type: 'json' };
import { closeHandlers, makeHandler, sampleFacts, send } from '../support/handler.ts';
import { ERAS, frame, initializeBody, LEGACY_VERSIONS, type Era } from '../support/mcp.ts';
import { factsRefusal } from '../support/refusals.ts';

afterAll(closeHandlers);

const notebookFacts = (): Product => checkFacts('notebook-facts.json', structuredClone(notebook));

/** Everything the service serves for these facts, by where it came from: bodies of every GET path and representation, every MCP answer. */
async function everythingServed(facts: Product): Promise<Map<string, string>> {
  // A security contact, so that security.txt is served too.
  const handler = await makeHandler({ facts, securityContact: 'mailto:security@example.org' });
  const served = new Map<string, string>();
  // The docs page's files are Swagger UI's own, the same bytes for every product (its list of top-level domains has .gallery).
  for (const route of ROUTES.filter((route) => route.methods.includes('GET') && route.answer !== 'asset')) {
    const types = ['*/*', ...(route.alternates ?? []).map((alternate) => alternate.mediaType)];
    for (const { path } of pathsOf(route)) {
      for (const accept of types) {
        const response = await send(handler, path, { headers: { accept, 'accept-encoding': 'identity' } });
        expect(response.status, `GET ${path} (${accept})`).toBe(200);
        served.set(`GET ${path} (${accept})`, await response.text());
      }
    }
  }
  for (const era of ERAS) for (const [label, answer] of await mcpAnswers(handler, facts, era)) served.set(`MCP ${era}: ${label}`, answer);
  return served;
}

async function mcpAnswers(handler: Handler, facts: Product, era: Era): Promise<[string, string][]> {
  const answers: [string, string][] = [];
  const rpc = async (method: string, params: Record<string, unknown> = {}, label = method) => {
    const initialize = { headers: frame(era, 'initialize').headers, body: initializeBody(LEGACY_VERSIONS[0]!) };
    const { headers, body } = method === 'initialize' ? initialize : frame(era, method, params);
    const json = await (await send(handler, '/mcp', { method: 'POST', headers, body })).json();
    expect(json.error, `${label}: ${JSON.stringify(json.error)}`).toBeUndefined();
    answers.push([label, JSON.stringify(json.result)]);
    return json.result;
  };
  await rpc(era === 'modern' ? 'server/discover' : 'initialize');
  for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) await rpc(method);
  for (const name of ['get_product_overview', 'list_public_resources', 'list_start_options']) {
    await rpc('tools/call', { name, arguments: {} }, `tools/call ${name}`);
  }
  const words = [
    ...new Set(
      JSON.stringify(facts)
        .toLowerCase()
        .match(/[a-z]{4,}/g),
    ),
  ].slice(0, 40);
  const ids = new Set<string>();
  for (const query of ['approval', 'private', ...words]) {
    const found = await rpc('tools/call', { name: 'search', arguments: { query } }, `search ${query}`);
    for (const { id } of found.structuredContent.results) ids.add(id);
  }
  expect([...ids]).toEqual(expect.arrayContaining(['overview', ...facts.startOptions.map((option) => `start:${option.id}`)]));
  for (const id of ids) await rpc('tools/call', { name: 'fetch', arguments: { id } }, `fetch ${id}`);
  await rpc('prompts/get', { name: 'explain_product' }, 'prompts/get explain_product');
  await rpc('prompts/get', { name: 'plan_safe_start', arguments: { goal: 'keep our first notebook' } }, 'prompts/get plan_safe_start');
  const { resources } = await rpc('resources/list');
  for (const { uri } of resources) await rpc('resources/read', { uri }, `resources/read ${uri}`);
  return answers;
}

/** The texts a served document holds, as a reader sees them (JSON string escapes undone, so an apostrophe is an apostrophe). */
const readable = (text: string) =>
  text
    .replace(/\\u0027/g, "'")
    .replace(/\\"/g, '"')
    .replace(/\\n/g, '\n')
    .replace(/\s+/g, ' ');

describe('a product without galleries (research notebooks)', async () => {
  const facts = notebookFacts();
  const served = await everythingServed(facts);
  const one = (label: string) => {
    const found = [...served].filter(([key]) => key.startsWith(label));
    expect(found.length, label).toBeGreaterThan(0);
    return readable(found.map(([, text]) => text).join('\n'));
  };

  it('is served everywhere: every GET path of the route table, and the MCP answers of both eras', () => {
    expect([...served.keys()]).toEqual(
      expect.arrayContaining([
        'GET /api/v1/product (*/*)',
        'GET /api/v1/product (text/markdown)',
        'GET /llms.txt (*/*)',
        'GET /llms-full.txt (*/*)',
        'GET /openapi.json (*/*)',
        'GET /docs (*/*)',
        'GET /schemas/facts.json (*/*)',
        'MCP legacy: initialize',
        'MCP modern: server/discover',
        'MCP modern: prompts/get plan_safe_start',
        'MCP legacy: fetch start:publish-first-notebook',
      ]),
    );
    expect(served.size).toBeGreaterThan(60);
  });

  it('names no gallery anywhere, in any case', () => {
    for (const [where, text] of served) expect(text.match(/.{0,60}galler.{0,60}/i)?.[0], where).toBeUndefined();
  });

  // The rules as the facts word them: each kind of private data, each action and why, each part of the private contract.
  const privacy = facts.product.neverReturned!;
  const approvals = facts.product.actionsNeedingApproval!.flatMap(({ action, reason }) => [action, reason]);
  const contract = facts.product.privateContract!;

  it.each([
    ['the JSON body', 'GET /api/v1/product (*/*)'],
    ['the Markdown body', 'GET /api/v1/product (text/markdown)'],
    ['llms.txt', 'GET /llms.txt'],
    ['llms-full.txt', 'GET /llms-full.txt'],
    ['the OpenAPI document (and so the docs page, which renders it)', 'GET /openapi.json'],
    ['the MCP instructions (2025 revisions)', 'MCP legacy: initialize'],
    ['the MCP instructions (2026-07-28)', 'MCP modern: server/discover'],
    ['the product overview tool', 'MCP modern: tools/call get_product_overview'],
    ['the overview document of fetch', 'MCP modern: fetch overview'],
    ['the explain_product prompt', 'MCP legacy: prompts/get explain_product'],
  ])("%s says the product's own privacy and approval rules and its private contract", (_, label) => {
    const text = one(label).toLowerCase();
    for (const words of [...privacy, ...approvals, ...contract]) {
      expect(text.includes(words.toLowerCase()), `${label}: ${words}`).toBe(true);
    }
  });

  it.each([
    ['the tool list (descriptions)', 'MCP legacy: tools/list'],
    ['the plan_safe_start prompt', 'MCP modern: prompts/get plan_safe_start'],
  ])("%s says what is never returned and which actions need a person's approval", (_, label) => {
    const text = one(label).toLowerCase();
    for (const words of [...privacy, ...facts.product.actionsNeedingApproval!.map(({ action }) => action)]) {
      expect(text.includes(words.toLowerCase()), `${label}: ${words}`).toBe(true);
    }
  });

  it('gives each start option that performs an action needing approval its reason, wherever start options are listed', () => {
    const option = facts.startOptions.find((entry) => entry.id === 'publish-first-notebook')!;
    const performed = facts.product.actionsNeedingApproval!.filter((action) => option.performs!.includes(action.id));
    const reasons = performed.map((action) => action.reason);
    expect(reasons).toHaveLength(2);
    const labels = [
      'GET /llms.txt',
      'GET /llms-full.txt',
      'GET /api/v1/product (text/markdown)',
      'MCP legacy: fetch start:publish-first-notebook',
    ];
    for (const label of labels) {
      for (const reason of reasons) expect(one(label).includes(reason), `${label}: ${reason}`).toBe(true);
    }
  });

  it("serves start options without v1's flag, and schemas that do not offer it", () => {
    const body = JSON.parse(served.get('GET /api/v1/product (*/*)')!);
    expect(body.startOptions.map((option: object) => Object.keys(option))).toEqual(
      facts.startOptions.map((option) => [
        'id',
        'title',
        'description',
        'url',
        ...(option.performs ? ['performs'] : []),
        'requiresHumanApproval',
      ]),
    );
    const openapi = JSON.parse(served.get('GET /openapi.json (*/*)')!);
    const properties = Object.keys(openapi.components.schemas.StartOption.properties);
    expect(properties).toEqual(['id', 'title', 'description', 'url', 'performs', 'requiresHumanApproval']);
  });
});

describe('the sample product (galleries)', async () => {
  const served = await everythingServed(sampleFacts());

  it('keeps its gallery rules, now from its facts', () => {
    const llms = readable(served.get('GET /llms.txt (*/*)')!);
    expect(llms).toContain('It takes no credentials and never returns galleries, clients, accounts, sessions or tokens.');
    expect(llms).toContain("Creating a gallery needs a person's approval, because it publishes a client's photos");
    expect(llms).toContain('Outside this public API, under the private contract of Lumen Galleries: gallery creation and publishing');
    const instructions = readable(served.get('MCP modern: server/discover')!);
    expect(instructions).toContain("Sharing a private capability link needs a person's approval, because anyone who holds the link");
  });

  it("still serves v1's createsGallery, required in the schemas as in v1", () => {
    const body = JSON.parse(served.get('GET /api/v1/product (*/*)')!);
    expect(body.startOptions.map((option: { createsGallery: boolean }) => option.createsGallery)).toEqual([false, false, false, true]);
    const openapi = JSON.parse(served.get('GET /openapi.json (*/*)')!);
    expect(openapi.components.schemas.StartOption.required).toContain('createsGallery');
    expect(readable(served.get('GET /api/v1/product (text/markdown)')!)).toContain('- Creates a gallery: yes');
  });
});

describe('the approval rule, stated once over the facts', () => {
  const refusal = factsRefusal;

  it.each([
    ['the sample', sample, 3, 'creating a gallery', 0],
    ['the notebook product', notebook, 3, 'publishing a notebook', 0],
    ['the notebook product (a paid plan)', notebook, 2, 'starting a paid plan', 2],
  ])('refuses, for %s, an option doing an action that needs approval marked as needing none', (_, file, index, why, action) => {
    const facts = structuredClone(file) as any;
    facts.startOptions[index].requiresHumanApproval = false;
    const message = refusal(facts);
    expect(message).toContain(
      `startOptions[${index}].requiresHumanApproval: false, but the option performs ${why} (product.actionsNeedingApproval[${action}])`,
    );
    expect(message).toContain("a person's approval; set it to true");
  });

  it('names both actions of an option that performs two', () => {
    const facts = structuredClone(notebook) as any;
    facts.startOptions[3].requiresHumanApproval = false;
    expect(refusal(facts)).toContain(
      'startOptions[3].requiresHumanApproval: false, but the option performs publishing a notebook (product.actionsNeedingApproval[0]) ' +
        "and inviting a collaborator (product.actionsNeedingApproval[1]), which need a person's approval; set it to true",
    );
  });

  it('refuses an action the facts do not list, naming the ones they do', () => {
    const facts = structuredClone(notebook) as any;
    facts.startOptions[0].performs = ['delete-workspace'];
    expect(refusal(facts)).toContain(
      'startOptions[0].performs[0]: "delete-workspace" is not the id of an action in product.actionsNeedingApproval; ' +
        'use one of: publish-notebook, invite-collaborator, start-paid-plan',
    );
  });

  it('accepts an option that needs approval without performing a listed action (approval may be asked for more)', () => {
    const facts = structuredClone(notebook) as any;
    facts.startOptions[1].requiresHumanApproval = true;
    expect(parseFacts('facts.json', JSON.stringify(facts)).startOptions[1]!.requiresHumanApproval).toBe(true);
  });

  it('reads the facts alone: a product that lists no actions and no private data needs no field for them', () => {
    const facts = structuredClone(notebook) as any;
    delete facts.product.neverReturned;
    delete facts.product.actionsNeedingApproval;
    delete facts.product.privateContract;
    for (const option of facts.startOptions) delete option.performs;
    const parsed = parseFacts('facts.json', JSON.stringify(facts));
    expect(parsed.startOptions.map((option) => approvalNeeds(option, parsed))).toEqual([[], [], [], []]);
    expect([privacySentence(parsed), privateContractSentence(parsed)]).toEqual(['', '']);
    expect(rulesParagraph(parsed)).toBe("An agent may show a start option that needs a person's approval, never take it for someone.");
  });
});

describe('the sentences', () => {
  const facts = notebookFacts();

  it('list what is never returned, each action with why, and the private contract, from the facts', () => {
    expect(privacySentence(facts)).toBe('This service never returns notebook entries, datasets, collaborators, workspaces or API keys.');
    expect(privateContractSentence(facts)).toBe(
      'Outside this public API, under the private contract of Marginalia Notebooks: workspace creation and notebook editing, in the ' +
        'signed-in app; share links to unpublished notebooks; lab sessions and single sign-on; the permission names (notebook:write, ' +
        'workspace:admin, export:pdf).',
    );
    expect(rulesParagraph(facts)).toContain(
      "Publishing a notebook needs a person's approval, because it makes a team's unpublished research readable by anyone. " +
        "Inviting a collaborator needs a person's approval, because the invited person can read every entry of the workspace.",
    );
  });

  it('say per start option whether it needs approval and why', () => {
    expect(facts.startOptions.map((option) => approvalRule(option, facts))).toEqual([
      'Needs no approval.',
      'Needs no approval.',
      "Needs a person's approval first: starting a paid plan, because it commits the lab to a yearly invoice.",
      "Needs a person's approval first: publishing a notebook, because it makes a team's unpublished research readable by anyone; " +
        'inviting a collaborator, because the invited person can read every entry of the workspace.',
    ]);
  });

  it.each([
    [[], ''],
    [['a'], 'a'],
    [['a', 'b'], 'a or b'],
    [['a', 'b', 'c'], 'a, b or c'],
  ])('join %j as %j', (items, expected) => {
    expect(listed(items, 'or')).toBe(expected);
  });
});
