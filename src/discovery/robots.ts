/**
 * @module robots.txt (RFC 9309): every path may be fetched by every crawler, and each known AI agent
 * is named in a group of its own (scanners read a `*` group alone as "no AI rules"); comments name
 * the discovery documents for a reader given only the host; `Content-Signal` (contentsignals.org)
 * and the IETF AI-preferences `Content-Usage` line say what the content may be used for; `Sitemap`
 * names the sitemap.
 */
import { AI_AGENTS } from '../agents/table.ts';
import {
  AI_CATALOG_PATH,
  API_CATALOG_PATH,
  API_PATH,
  DOCS_PATH,
  LLMS_FULL_PATH,
  LLMS_PATH,
  MCP_PATH,
  OPENAPI_PATH,
  SERVER_CARD_WELL_KNOWN_PATH,
  SITEMAP_PATH,
  SKILL_INDEX_PATH,
} from '../route.ts';

/**
 * The AI-preferences vocabulary (draft-ietf-aipref-vocab) of a Content-Signal value, as
 * draft-ietf-aipref-attach writes it in robots.txt and in the `Content-Usage` header field (a
 * Structured Fields Dictionary of `y`/`n` tokens): `search` maps to `search`, `ai-train` to
 * `train-ai`; `ai-input` has no category there. Empty when the signal names neither.
 */
export function contentUsage(contentSignal: string): string {
  const signals = new Map(contentSignal.split(',').map((item) => item.trim().split('=') as [string, string]));
  return [
    ['search', 'search'],
    ['ai-train', 'train-ai'],
  ]
    .filter(([signal]) => signals.has(signal!))
    .map(([signal, category]) => `${category}=${signals.get(signal!) === 'yes' ? 'y' : 'n'}`)
    .join(', ');
}

export function buildRobotsTxt({ base, contentSignal, docsPage }: { base: string; contentSignal: string; docsPage: boolean }): string {
  const documents = [
    ['API catalog (RFC 9727)', API_CATALOG_PATH],
    ['API index', API_PATH],
    ['OpenAPI document', OPENAPI_PATH],
    ...(docsPage ? [['API reference for people', DOCS_PATH]] : []),
    ['llms.txt', LLMS_PATH],
    ['llms-full.txt', LLMS_FULL_PATH],
    ['MCP endpoint (Streamable HTTP)', MCP_PATH],
    ['MCP server card', SERVER_CARD_WELL_KNOWN_PATH],
    ['Agent Skills index', SKILL_INDEX_PATH],
    ['AI catalog', AI_CATALOG_PATH],
  ];
  const usage = contentUsage(contentSignal);
  // RFC 9309 section 2.2.1: a crawler obeys the group naming it, else the `*` group; each says the same here.
  const group = (agent: string) => [
    `User-agent: ${agent}`,
    `Content-Signal: ${contentSignal}`,
    ...(usage ? [`Content-Usage: ${usage}`] : []),
    'Allow: /',
    '',
  ];
  return [
    `# ${base}: a public, read-only API. Every path may be fetched.`,
    '#',
    ...documents.map(([name, path]) => `# ${name}: ${base}${path}`),
    '#',
    '# Content signals (https://contentsignals.org): search = building a search index and linking to it;',
    '# ai-input = using the content as input to an AI answer (retrieval, grounding); ai-train = training',
    '# or fine-tuning AI models. A signal left out neither grants nor restricts that use.',
    '# Content-Usage: the same preferences in the IETF AI-preferences vocabulary (y = allowed, n = not).',
    '# Known AI agents are named one by one below, each allowed everything, as every other crawler is.',
    '',
    ...group('*'),
    ...AI_AGENTS.flatMap(group),
    `Sitemap: ${base}${SITEMAP_PATH}`,
    '',
  ].join('\n');
}
