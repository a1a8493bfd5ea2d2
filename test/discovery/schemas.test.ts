import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { buildApiCatalog } from '../../src/discovery/catalog.ts';
import { API_CATALOG_TYPE, SERVER_CARD_SCHEMA } from '../../src/discovery/identifiers.ts';
import { ApiCatalog, ServerCard } from '../../src/discovery/schemas.ts';
import { buildServerCard } from '../../src/discovery/server-card.ts';
import { BASE, sampleFacts } from '../support/handler.ts';

describe('the discovery schemas', () => {
  it('name the API catalog media type with the RFC 9727 profile', () => {
    expect(API_CATALOG_TYPE).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
  });

  it("take the catalog and the card the builders make, and refuse a card past the draft's limits", () => {
    expect(v.safeParse(ApiCatalog, buildApiCatalog({ base: BASE, facts: sampleFacts(), docsPage: true })).success).toBe(true);
    const card = buildServerCard({ base: BASE, facts: sampleFacts(), version: '1.0.0', mcp: { protocolVersions: ['2026-07-28'] } });
    expect(v.parse(ServerCard, card).$schema).toBe(SERVER_CARD_SCHEMA);
    expect(v.safeParse(ServerCard, { ...card, title: 'x'.repeat(101) }).success).toBe(false);
    expect(v.safeParse(ServerCard, { ...card, name: 'no slash' }).success).toBe(false);
  });
});
