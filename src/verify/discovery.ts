/**
 * @module The discovery documents, each checked when the deployment documents it and its GET
 * answered: the API catalog (RFC 9727), llms.txt, the MCP server card and its well-known alias, the
 * root, robots.txt, llms-full.txt, the docs page, the sitemap, the Agent Skill with its index,
 * security.txt and the AI catalog. Their bodies were validated by the GET checks; these check what the contract says
 * they point at.
 */
import { REQUIRED_AI_AGENTS } from '../agents/table.ts';
import { SERVER_CARD_TYPE } from '../discovery/identifiers.ts';
import {
  AI_CATALOG_PATH,
  API_CATALOG_PATH,
  API_PATH,
  DOCS_PATH,
  OPENAPI_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  ROBOTS_PATH,
  ROOT_PATH,
  SERVER_CARD_PATH,
  SECURITY_TXT_PATH,
  SERVER_CARD_WELL_KNOWN_PATH,
  SITEMAP_PATH,
  SKILL_INDEX_PATH,
  SKILL_PATH,
} from '../route.ts';
import { linkTargets, mediaType } from './fields.ts';
import { checkAll, type Check } from './report.ts';
import type { Answer } from './session.ts';

const json = (answer: Answer): any => {
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
};

/** Every string in a JSON value, so links are found without fixing the document's layout. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const lacking = (have: string[], want: string[]) => want.filter((item) => !have.includes(item)).map((item) => `no ${item}`);
const HINT =
  'another release, or a proxy that rewrites the document, answers here: compare with the contract and the served OpenAPI document';

type Builder = (answer: Answer, base: string, gets: Map<string, Answer>) => Check | Promise<Check>;

const sha256 = async (text: string) =>
  `sha256:${[...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;

/**
 * What the AI catalog lists: each entry's type, the path it points at, and the media type that path
 * answers with (the type the entry names, but for the OpenAPI document's registered type, served as JSON).
 */
const AI_CATALOG_ENTRIES: [type: string, path: string, served: string][] = [
  [SERVER_CARD_TYPE, SERVER_CARD_PATH, SERVER_CARD_TYPE],
  ['application/openapi+json', OPENAPI_PATH, 'application/json'],
  ['text/markdown', SKILL_PATH, 'text/markdown'],
  ['text/markdown', LLMS_PATH, 'text/markdown'],
];

const pathOfUrl = (url: string, base: string) => (url.startsWith(`${base}/`) ? url.slice(base.length) : undefined);

const DOCUMENTS: Record<string, Builder> = {
  [API_CATALOG_PATH]: (answer, base, gets) => {
    const context = json(answer)?.linkset?.[0] ?? {};
    const hrefs = (rel: string): string[] => (context[rel] ?? []).map((target: { href: string }) => target.href);
    const problems = [
      ...(context.anchor === `${base}/api/v1` ? [] : [`anchor ${context.anchor}`]),
      ...lacking(hrefs('service-desc'), [`${base}/openapi.json`]).map((p) => `service-desc: ${p}`),
      ...lacking(hrefs('status'), [`${base}/api/v1/health`]).map((p) => `status: ${p}`),
      ...lacking(hrefs('service-meta'), [`${base}/llms.txt`]).map((p) => `service-meta: ${p}`),
      ...(gets.has(DOCS_PATH) ? lacking(hrefs('service-doc'), [`${base}/docs`]).map((p) => `service-doc: ${p}`) : []),
      ...(/rfc9727/.test(answer.headers.get('content-type') ?? '') ? [] : ['Content-Type without the RFC 9727 profile']),
      ...[answer, gets.get(API_PATH)]
        .filter(
          (a): a is Answer =>
            a !== undefined && !linkTargets(a.headers.get('link'), 'api-catalog').includes(`${base}/.well-known/api-catalog`),
        )
        .map((a) => `no rel="api-catalog" Link on ${a.path}`),
    ];
    return checkAll(
      'discovery.api-catalog',
      `a Linkset anchored at ${base}/api/v1 with service-desc, status and service-meta, linked from /api/v1`,
      problems,
      'complete',
      HINT,
    );
  },
  [LLMS_PATH]: (answer, base) => {
    const text = answer.body;
    const problems = [
      ...(/^# \S/.test(text) ? [] : ['no "# " title on the first line']),
      ...(/^> \S/m.test(text) ? [] : ['no "> " summary']),
      ...(/^## API$/m.test(text) ? [] : ['no "## API" section']),
      ...(text.includes(`${base}/openapi.json`) ? [] : [`no link to ${base}/openapi.json`]),
    ];
    return checkAll(
      'discovery.llms-txt',
      'an llmstxt.org page: title, summary, "## API" with the OpenAPI link',
      problems,
      'complete',
      HINT,
    );
  },
  [SERVER_CARD_PATH]: (answer, base, gets) => {
    const card = json(answer) ?? {};
    const remote = card.remotes?.[0] ?? {};
    const index = json(gets.get(API_PATH) ?? answer)?.mcp;
    const alias = gets.get(SERVER_CARD_WELL_KNOWN_PATH);
    const problems = [
      ...(remote.url === `${base}/mcp` && remote.type === 'streamable-http' ? [] : [`remote ${remote.type} ${remote.url}`]),
      ...(index && JSON.stringify(remote.supportedProtocolVersions) !== JSON.stringify(index.protocolVersions)
        ? ['protocol revisions differ from the API index']
        : []),
      ...(alias && (alias.body !== answer.body || alias.headers.get('etag') !== answer.headers.get('etag'))
        ? ['/.well-known/mcp/server-card.json differs (bytes or ETag)']
        : []),
    ];
    return checkAll(
      'discovery.server-card',
      `a card whose remote is ${base}/mcp (streamable-http) with the index's revisions${alias ? ', the same bytes and ETag at the well-known alias' : ''}`,
      problems,
      'complete',
      HINT,
    );
  },
  [ROOT_PATH]: (answer, base) => {
    const links = answer.headers.get('link');
    const problems = [
      ...lacking(strings(json(answer)), [`${base}/api/v1`, `${base}/openapi.json`, `${base}/mcp`]).map((p) => `body: ${p}`),
      ...['api-catalog', 'service-desc', 'describedby', 'alternate']
        .filter((rel) => linkTargets(links, rel).length === 0)
        .map((rel) => `no rel="${rel}" Link`),
      ...(linkTargets(links, 'describedby').includes(`${base}/api/v1/product`) ? [] : ['no rel="describedby" Link to the JSON-LD']),
    ];
    return checkAll(
      'discovery.root',
      'JSON linking /api/v1, /openapi.json and /mcp, with api-catalog, service-desc, describedby and alternate Links',
      problems,
      'complete',
      HINT,
    );
  },
  [ROBOTS_PATH]: (answer, base) => {
    const lines: [string, RegExp][] = [
      ['User-agent: *', /^User-agent: \*$/im],
      ['Allow: /', /^Allow: \/$/im],
      ['Content-Signal', /^Content-Signal: \S/im],
      [`Sitemap: ${base}/sitemap.xml`, new RegExp(`^Sitemap: ${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/sitemap\\.xml$`, 'im')],
    ];
    const named = new Set([...answer.body.matchAll(/^User-agent: *(\S+)/gim)].map((match) => match[1]!.toLowerCase()));
    const problems = [
      ...lines.filter(([, line]) => !line.test(answer.body)).map(([name]) => `no line ${name}`),
      ...REQUIRED_AI_AGENTS.filter((agent) => !named.has(agent.toLowerCase())).map((agent) => `no group for ${agent}`),
    ];
    return checkAll(
      'discovery.robots',
      'User-agent: *, Allow: /, a Content-Signal line, a group per known AI agent and the Sitemap',
      problems,
      'complete',
      HINT,
    );
  },
  [LLMS_FULL_PATH]: (answer) =>
    checkAll(
      'discovery.llms-full',
      'a Markdown page with a "# " title',
      /^# \S/.test(answer.body) ? [] : ['no "# " title'],
      'complete',
      HINT,
    ),
  [DOCS_PATH]: (answer) => {
    const csp = answer.headers.get('content-security-policy') ?? '';
    const problems = [
      ...(/default-src 'none'/.test(csp) ? [] : [`Content-Security-Policy ${csp || 'missing'}`]),
      ...(answer.headers.get('referrer-policy') === 'no-referrer'
        ? []
        : [`Referrer-Policy ${answer.headers.get('referrer-policy') ?? 'missing'}`]),
    ];
    return checkAll(
      'discovery.docs',
      "an HTML page with Content-Security-Policy default-src 'none' and Referrer-Policy: no-referrer",
      problems,
      'complete',
      "the proxy in front drops the page's security fields: pass them through",
    );
  },
  [SITEMAP_PATH]: (answer, base, gets) => {
    const reviewedOn = json(gets.get('/api/v1/product') ?? answer)?.product?.reviewedOn;
    const locs = [...answer.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
    const lastmods = [...answer.body.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((match) => match[1]!);
    const problems = [
      ...(answer.body.includes('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"') ? [] : ['no sitemaps.org 0.9 urlset']),
      ...lacking(locs, [`${base}/`, `${base}/api/v1/product`]),
      ...locs.filter((loc) => !loc.startsWith(`${base}/`)).map((loc) => `${loc} outside ${base}`),
      ...(reviewedOn && (lastmods.length !== locs.length || lastmods.some((date) => date !== reviewedOn))
        ? [`lastmod other than the review date ${reviewedOn}`]
        : []),
    ];
    return checkAll(
      'discovery.sitemap',
      "a sitemaps.org urlset of the service's documents, each lastmod the facts' review date",
      problems,
      'complete',
      HINT,
    );
  },
  [SKILL_PATH]: async (answer, base, gets) => {
    const front = /^---\n([\s\S]*?)\n---\n/.exec(answer.body)?.[1] ?? '';
    const entry = json(gets.get(SKILL_INDEX_PATH) ?? answer)?.skills?.[0];
    const listedPath = typeof entry?.url === 'string' ? pathOfUrl(entry.url, base) : undefined;
    const listed = listedPath ? gets.get(listedPath) : undefined;
    const problems = [
      ...(/^name: *\S/m.test(front) && /^description: *\S/m.test(front) ? [] : ['no front matter with name and description']),
      ...(entry ? [] : ['no skill in /.well-known/agent-skills/index.json']),
      ...(entry && !listed ? [`the index lists ${entry.url}, not a path of ${base} answered here`] : []),
      ...(listed && listed.body !== answer.body ? [`${listedPath} differs from /skill.md`] : []),
      ...(entry && entry.digest !== (await sha256(answer.body)) ? ['the index digest is not the SHA-256 of the served SKILL.md'] : []),
    ];
    return checkAll(
      'discovery.skill',
      'a SKILL.md with name and description, the same bytes where the index lists it, with their digest',
      problems,
      'complete',
      HINT,
    );
  },
  [AI_CATALOG_PATH]: (answer, base, gets) => {
    const entries: { type?: unknown; url?: unknown }[] = Array.isArray(json(answer)?.entries) ? json(answer).entries : [];
    const problems = AI_CATALOG_ENTRIES.flatMap(([type, path, served]) => {
      const url = `${base}${path}`;
      const entry = entries.find((candidate) => candidate.url === url);
      if (entry === undefined) return [`no entry for ${url}`];
      if (entry.type !== type) return [`${url} listed as ${String(entry.type)}, not ${type}`];
      const target = gets.get(path);
      if (target && target.status !== 200) return [`${url} answered ${target.status}`];
      const answered = target && mediaType(target.headers.get('content-type')).type;
      return answered && answered !== served ? [`${url} answered ${answered}, not ${served}`] : [];
    });
    return checkAll(
      'discovery.ai-catalog',
      'an AI catalog listing the server card, the OpenAPI document, the skill and llms.txt, each answering 200 here with its type',
      problems,
      'complete',
      HINT,
    );
  },
  [SECURITY_TXT_PATH]: (answer, base) => {
    const field = (name: string) => new RegExp(`^${name}: *(\\S.*)$`, 'im').exec(answer.body)?.[1];
    const expires = Date.parse(field('Expires') ?? '');
    const problems = [
      ...(/^(mailto|https):/.test(field('Contact') ?? '') ? [] : ['no mailto: or https: Contact']),
      ...(expires > Date.now() ? [] : [`Expires ${field('Expires') ?? 'missing'} is not in the future`]),
      ...(field('Canonical') === `${base}/.well-known/security.txt` ? [] : [`Canonical ${field('Canonical') ?? 'missing'}`]),
    ];
    return checkAll(
      'discovery.security-txt',
      'RFC 9116: a Contact, an Expires in the future and the Canonical URL',
      problems,
      'complete',
      HINT,
    );
  },
};

/** The checks of the discovery documents the deployment documents and answered with 200. */
export function discoveryChecks(gets: Map<string, Answer>, base: string): Promise<Check[]> {
  return Promise.all(
    Object.entries(DOCUMENTS)
      .filter(([path]) => gets.get(path)?.status === 200)
      .map(([path, build]) => build(gets.get(path)!, base, gets)),
  );
}
