/**
 * @module The API catalog (RFC 9727): one Linkset context, the API, with its OpenAPI document
 * (service-desc), its documentation (service-doc: the docs page while it is on, then the facts'
 * documentation pages), its health (status), llms.txt (service-meta) and the product as schema.org
 * JSON-LD (describedby).
 */
import { API_PATH, DOCS_PATH, HEALTH_PATH, LINK_TARGETS, LLMS_PATH, OPENAPI_PATH } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import type { ApiCatalog } from './schemas.ts';

export function buildApiCatalog({ base, facts, docsPage }: { base: string; facts: Product; docsPage: boolean }): ApiCatalog {
  const docs = [
    ...(docsPage ? [{ href: `${base}${DOCS_PATH}`, type: 'text/html', title: 'API reference' }] : []),
    ...facts.resources.filter((resource) => resource.kind === 'docs').map(({ url, title }) => ({ href: url, type: 'text/html', title })),
  ];
  return {
    linkset: [
      {
        anchor: `${base}${API_PATH}`,
        'service-desc': [{ href: `${base}${OPENAPI_PATH}`, type: 'application/json' }],
        ...(docs.length > 0 ? { 'service-doc': docs } : {}),
        status: [{ href: `${base}${HEALTH_PATH}`, type: 'application/json' }],
        'service-meta': [{ href: `${base}${LLMS_PATH}`, type: 'text/markdown' }],
        describedby: [{ href: `${base}${LINK_TARGETS.jsonLd.path}`, type: LINK_TARGETS.jsonLd.type }],
      },
    ],
  };
}
