/**
 * The discovery documents as verify checks them, from the handler's real GET answers: each passes
 * as served, is checked only when it answered 200, and fails, naming what is missing, when its
 * body or fields lose what the contract says it points at.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { HandlerOptions } from '../../src/handler.ts';
import { discoveryChecks } from '../../src/verify/discovery.ts';
import { getTargets } from '../../src/verify/document.ts';
import type { Answer } from '../../src/verify/session.ts';
import { BASE, closeHandlers } from '../support/handler.ts';
import { changed, sessionOf } from '../support/verify.ts';

afterAll(closeHandlers);

const IDS = [
  'discovery.api-catalog',
  'discovery.llms-txt',
  'discovery.server-card',
  'discovery.root',
  'discovery.robots',
  'discovery.llms-full',
  'discovery.docs',
  'discovery.sitemap',
  'discovery.skill',
  'discovery.ai-catalog',
];

/** The GET answer of every path the served document lists, by path. */
async function getsOf(options: Partial<HandlerOptions> = {}): Promise<Map<string, Answer>> {
  const session = await sessionOf({}, options);
  const document = JSON.parse((await session.request('/openapi.json')).body);
  const gets = new Map<string, Answer>();
  for (const { path } of getTargets(document).targets) gets.set(path, await session.request(path));
  return gets;
}

/** The GET answers with the one of `path` changed: fields, and the body as `edit` rewrites it. */
function changing(
  gets: Map<string, Answer>,
  path: string,
  fields: Record<string, string | undefined>,
  edit: (body: string) => string = (body) => body,
): Map<string, Answer> {
  return new Map(gets).set(path, changed(gets.get(path)!, fields, edit(gets.get(path)!.body)));
}

/** A JSON body with `edit` applied. */
const json = (edit: (value: any) => void) => (body: string) => {
  const value = JSON.parse(body);
  edit(value);
  return JSON.stringify(value);
};

const failures = async (gets: Map<string, Answer>, base = BASE) =>
  (await discoveryChecks(gets, base)).filter((check) => !check.ok).map((check) => [check.id, check.got]);

describe('discoveryChecks', () => {
  it('passes every discovery document the service serves, with a hint ready for each', async () => {
    const checks = await discoveryChecks(await getsOf(), BASE);
    expect(checks.map((check) => [check.id, check.ok, check.got])).toEqual(IDS.map((id) => [id, true, 'complete']));
    expect(checks.find((check) => check.id === 'discovery.server-card')!.expected).toContain(
      'the same bytes and ETag at the well-known alias',
    );
  });

  it('checks only the documents that answered 200; without the docs page, the catalog needs no service-doc', async () => {
    const gets = await getsOf();
    gets.delete('/robots.txt');
    gets.set('/llms.txt', { ...gets.get('/llms.txt')!, status: 404 });
    expect((await discoveryChecks(gets, BASE)).map((check) => check.id)).toEqual(
      IDS.filter((id) => id !== 'discovery.robots' && id !== 'discovery.llms-txt'),
    );
    const pageless = await discoveryChecks(await getsOf({ docsPage: false }), BASE);
    expect(pageless.map((check) => [check.id, check.ok])).toEqual(IDS.filter((id) => id !== 'discovery.docs').map((id) => [id, true]));
  });

  it('checks security.txt while it is served', async () => {
    const gets = await getsOf({ securityContact: 'mailto:security@example.com' });
    const checks = await discoveryChecks(gets, BASE);
    expect(checks.map((check) => [check.id, check.ok])).toContainEqual(['discovery.security-txt', true]);
    const expired = changing(gets, '/.well-known/security.txt', {}, (body) =>
      body.replace(/^Expires: .*$/m, 'Expires: 2020-01-01T00:00:00Z'),
    );
    expect(await failures(expired)).toEqual([['discovery.security-txt', 'Expires 2020-01-01T00:00:00Z is not in the future']]);
  });

  it('fails the documents that point under another {base}, and only those', async () => {
    const other = 'https://other.example';
    expect(await failures(await getsOf(), other)).toEqual([
      ['discovery.api-catalog', `anchor ${BASE}/api/v1; service-desc: no ${other}/openapi.json; and 5 more`],
      ['discovery.llms-txt', `no link to ${other}/openapi.json`],
      ['discovery.server-card', `remote streamable-http ${BASE}/mcp`],
      ['discovery.root', `body: no ${other}/api/v1; body: no ${other}/openapi.json; and 2 more`],
      ['discovery.robots', `no line Sitemap: ${other}/sitemap.xml`],
      ['discovery.sitemap', `no ${other}/; no ${other}/api/v1/product; and 10 more`],
      [
        'discovery.skill',
        `the index lists ${BASE}/.well-known/agent-skills/product-discovery/SKILL.md, not a path of ${other} answered here`,
      ],
      ['discovery.ai-catalog', `no entry for ${other}/mcp/server-card; no entry for ${other}/openapi.json; and 2 more`],
    ]);
  });

  it.each<[string, string, Record<string, string | undefined>, ((body: string) => string) | undefined, string]>([
    [
      '/.well-known/api-catalog',
      'discovery.api-catalog',
      { 'content-type': 'application/linkset+json' },
      undefined,
      'Content-Type without the RFC 9727 profile',
    ],
    [
      '/.well-known/api-catalog',
      'discovery.api-catalog',
      {},
      json((v) => delete v.linkset[0]['service-doc']),
      `service-doc: no ${BASE}/docs`,
    ],
    [
      '/api/v1',
      'discovery.api-catalog',
      { link: `<${BASE}/openapi.json>; rel="service-desc"` },
      undefined,
      'no rel="api-catalog" Link on /api/v1',
    ],
    ['/llms.txt', 'discovery.llms-txt', {}, (body) => body.replace(/^## API$/m, '## Reference'), 'no "## API" section'],
    ['/llms.txt', 'discovery.llms-txt', {}, (body) => body.replace(/^# /, 'Title: '), 'no "# " title on the first line'],
    [
      '/.well-known/mcp/server-card.json',
      'discovery.server-card',
      {},
      (body) => `${body}\n`,
      '/.well-known/mcp/server-card.json differs (bytes or ETag)',
    ],
    [
      '/.well-known/mcp/server-card.json',
      'discovery.server-card',
      { etag: '"other"' },
      undefined,
      '/.well-known/mcp/server-card.json differs (bytes or ETag)',
    ],
    ['/api/v1', 'discovery.server-card', {}, json((v) => v.mcp.protocolVersions.pop()), 'protocol revisions differ from the API index'],
    ['/', 'discovery.root', {}, json((v) => delete v.links.mcp), `body: no ${BASE}/mcp`],
    [
      '/',
      'discovery.root',
      { link: `<${BASE}/openapi.json>; rel="service-desc", <${BASE}/.well-known/api-catalog>; rel="api-catalog"` },
      undefined,
      'no rel="describedby" Link; no rel="alternate" Link; and 1 more',
    ],
    ['/robots.txt', 'discovery.robots', {}, (body) => body.replace(/^Content-Signal: .*$/gim, ''), 'no line Content-Signal'],
    ['/robots.txt', 'discovery.robots', {}, (body) => body.replace(/^Allow: \/$/gim, 'Allow: /api/'), 'no line Allow: /'],
    ['/llms-full.txt', 'discovery.llms-full', {}, (body) => body.replace(/^# /, ''), 'no "# " title'],
    ['/docs', 'discovery.docs', { 'content-security-policy': undefined }, undefined, 'Content-Security-Policy missing'],
    ['/docs', 'discovery.docs', { 'referrer-policy': 'origin' }, undefined, 'Referrer-Policy origin'],
    ['/robots.txt', 'discovery.robots', {}, (body) => body.replace(/^Sitemap: .*$/im, ''), `no line Sitemap: ${BASE}/sitemap.xml`],
    [
      '/robots.txt',
      'discovery.robots',
      {},
      (body) => body.replace(/^User-agent: ClaudeBot$/im, 'User-agent: SomeBot'),
      'no group for ClaudeBot',
    ],
    ['/.well-known/ai-catalog.json', 'discovery.ai-catalog', {}, json((catalog) => catalog.entries.pop()), `no entry for ${BASE}/llms.txt`],
    [
      '/.well-known/ai-catalog.json',
      'discovery.ai-catalog',
      {},
      json((catalog) => (catalog.entries[2].type = 'application/agent-skills+md')),
      `${BASE}/skill.md listed as application/agent-skills+md, not text/markdown`,
    ],
    [
      '/skill.md',
      'discovery.ai-catalog',
      { 'content-type': 'text/plain' },
      undefined,
      `${BASE}/skill.md answered text/plain, not text/markdown`,
    ],
    [
      '/sitemap.xml',
      'discovery.sitemap',
      {},
      (body) => body.replace(/<lastmod>[^<]*<\/lastmod>/, '<lastmod>2020-01-01</lastmod>'),
      `lastmod other than the review date ${'2026-11-02'}`,
    ],
    [
      '/sitemap.xml',
      'discovery.sitemap',
      {},
      (body) => body.replace(`<loc>${BASE}/</loc>`, '<loc>https://elsewhere.example/</loc>'),
      `no ${BASE}/; https://elsewhere.example/ outside ${BASE}`,
    ],
    [
      '/skill.md',
      'discovery.skill',
      {},
      (body) => `${body}\n`,
      '/.well-known/agent-skills/product-discovery/SKILL.md differs from /skill.md; the index digest is not the SHA-256 of the served SKILL.md',
    ],
    [
      '/skill.md',
      'discovery.skill',
      {},
      (body) => body.replace(/^name: .*$/m, 'title: x'),
      'no front matter with name and description; /.well-known/agent-skills/product-discovery/SKILL.md differs from /skill.md; and 1 more',
    ],
    [
      '/',
      'discovery.root',
      {
        link: `<${BASE}/openapi.json>; rel="service-desc", <${BASE}/.well-known/api-catalog>; rel="api-catalog", <${BASE}/mcp/server-card>; rel="describedby", <${BASE}/>; rel="alternate"`,
      },
      undefined,
      'no rel="describedby" Link to the JSON-LD',
    ],
  ])('catches %s changed, in %s alone', async (path, id, fields, edit, problem) => {
    expect(await failures(changing(await getsOf(), path, fields, edit))).toEqual([[id, problem]]);
  });
});
