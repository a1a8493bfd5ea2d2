/**
 * @module The AI Catalog at /.well-known/ai-catalog.json, the discovery path the MCP server-card
 * draft names (its catalog format is the AI Catalog's, Agent-Card/ai-catalog): the host, and one entry
 * per artifact the service publishes for agents, each with a `urn:air:{publisher}:{namespace}:{name}`
 * identifier anchored on `{base}`'s host, its media type (the one its URL answers with; the OpenAPI
 * document's registered `application/openapi+json`, which the contract allows beside the
 * `application/json` it is served as) and its URL on this service. The server card
 * carries its own title and description, so its entry names none (the spec's "authoritative source"
 * rule); the others say what they are.
 */
import { parseAddress } from '../util/ipaddr.ts';
import { DOCS_PATH, LLMS_PATH, OPENAPI_PATH, SERVER_CARD_PATH, SKILL_PATH, type SkillFile } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { SERVER_CARD_TYPE } from './identifiers.ts';
import type { AiCatalog } from './schemas.ts';

/** The name every entry shares after its namespace (the server card's name ends in it too). */
const NAME = 'product-discovery';

/** The publisher segment: `{base}`'s host name, or `localhost` for an IP address (it names no domain). */
export function publisherOf(base: string): string {
  const { hostname } = new URL(base);
  return parseAddress(hostname.replace(/^\[|\]$/g, '')) === undefined ? hostname.toLowerCase() : 'localhost';
}

export function buildAiCatalog({
  base,
  facts,
  docsPage,
  skill,
}: {
  base: string;
  facts: Product;
  docsPage: boolean;
  skill: SkillFile;
}): AiCatalog {
  const identifier = (namespace: string) => `urn:air:${publisherOf(base)}:${namespace}:${NAME}`;
  // The facts' review date is when each artifact's content last changed.
  const updatedAt = `${facts.product.reviewedOn}T00:00:00Z`;
  const { name } = facts.product;
  return {
    specVersion: '1.0',
    host: { displayName: name, ...(docsPage ? { documentationUrl: `${base}${DOCS_PATH}` } : {}) },
    entries: [
      { identifier: identifier('mcp'), type: SERVER_CARD_TYPE, url: `${base}${SERVER_CARD_PATH}`, updatedAt },
      {
        identifier: identifier('openapi'),
        type: 'application/openapi+json',
        url: `${base}${OPENAPI_PATH}`,
        displayName: `${name} public API`,
        description: 'The OpenAPI 3.1 document of the REST API and the MCP endpoint: the authoritative contract.',
        updatedAt,
      },
      {
        identifier: identifier('skill'),
        // What /skill.md answers with, as every entry but the OpenAPI document's (its own registered type).
        type: 'text/markdown',
        url: `${base}${SKILL_PATH}`,
        displayName: skill.name,
        description: skill.description,
        updatedAt,
      },
      {
        identifier: identifier('llms-txt'),
        type: 'text/markdown',
        url: `${base}${LLMS_PATH}`,
        displayName: 'llms.txt',
        description: `The facts about ${name} as a short Markdown page for language models (llmstxt.org).`,
        updatedAt,
      },
    ],
  };
}
