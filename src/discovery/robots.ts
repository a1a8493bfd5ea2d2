/**
 * @module robots.txt (RFC 9309): every path may be fetched by every crawler; comments name the
 * discovery documents for a reader given only the host; `Content-Signal` (contentsignals.org) says
 * what the content may be used for.
 */
import { API_CATALOG_PATH, API_PATH, DOCS_PATH, LLMS_FULL_PATH, LLMS_PATH, MCP_PATH, OPENAPI_PATH, SERVER_CARD_WELL_KNOWN_PATH } from '../route.ts';

/** What robots.txt tells crawlers they may do with the content (contentsignals.org), unless configured. */
export const CONTENT_SIGNAL_DEFAULT = 'search=yes, ai-input=yes';

export function buildRobotsTxt(base: string, { contentSignal, docsPage }: { contentSignal: string; docsPage: boolean }): string {
  const documents = [
    ['API catalog (RFC 9727)', API_CATALOG_PATH],
    ['API index', API_PATH],
    ['OpenAPI document', OPENAPI_PATH],
    ...(docsPage ? [['API reference for people', DOCS_PATH]] : []),
    ['llms.txt', LLMS_PATH],
    ['llms-full.txt', LLMS_FULL_PATH],
    ['MCP endpoint (Streamable HTTP)', MCP_PATH],
    ['MCP server card', SERVER_CARD_WELL_KNOWN_PATH],
  ];
  return [
    `# ${base}: a public, read-only API. Every path may be fetched.`,
    '#',
    ...documents.map(([name, path]) => `# ${name}: ${base}${path}`),
    '#',
    '# Content signals (https://contentsignals.org): search = building a search index and linking to it;',
    '# ai-input = using the content as input to an AI answer (retrieval, grounding); ai-train = training',
    '# or fine-tuning AI models. A signal left out neither grants nor restricts that use.',
    '',
    'User-agent: *',
    `Content-Signal: ${contentSignal}`,
    'Allow: /',
    '',
  ].join('\n');
}
