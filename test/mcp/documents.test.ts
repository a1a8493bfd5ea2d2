/**
 * The documents of the search and fetch tools (src/mcp/documents.ts): ids derived from the facts
 * and stable across reloads, a URL on every document, and the documented ranking, pinned query by
 * query on the sample facts.
 */
import { describe, expect, it } from 'vitest';
import { buildDocuments, createLibrary, wordsOf } from '../../src/mcp/documents.ts';
import { BASE, sampleFacts } from '../support/handler.ts';

const facts = sampleFacts();
const library = createLibrary(BASE, facts);
const ids = (query: string) => library.search(query).results.map((result) => result.id);

describe('the documents', () => {
  it('are the overview, every resource and every start option, with ids made from the facts', () => {
    expect(library.documents.map((document) => document.id)).toEqual([
      'overview',
      ...facts.resources.map((resource) => `resource:${resource.id ?? resource.kind}`),
      ...facts.startOptions.map((option) => `start:${option.id}`),
    ]);
    expect(library.documents.map((document) => document.id)).toEqual(expect.arrayContaining(['resource:docs', 'start:start-free-trial']));
  });

  it("link each to its canonical URL, the overview to the product body's", () => {
    expect(library.find('overview')!.url).toBe(`${BASE}/api/v1/product`);
    for (const resource of facts.resources) expect(library.find(`resource:${resource.kind}`)!.url).toBe(resource.url);
    for (const option of facts.startOptions) expect(library.find(`start:${option.id}`)!.url).toBe(option.url);
    for (const document of library.documents) expect(document.url, document.id).toMatch(/^https?:\/\/\S+$/);
  });

  it("use a resource's own id when it has one", () => {
    const withId = sampleFacts();
    withId.resources[1] = { ...withId.resources[1]!, id: 'developer-guides' };
    const documents = buildDocuments(BASE, withId);
    expect(documents.find((document) => document.id === 'resource:developer-guides')?.url).toBe(withId.resources[1]!.url);
    expect(documents.find((document) => document.id === 'resource:docs')).toBeUndefined();
  });

  it('keep their ids across a reload that reorders and rewords the facts', () => {
    const reloaded = sampleFacts();
    reloaded.resources.reverse();
    reloaded.startOptions.reverse();
    reloaded.startOptions[0]!.description = 'Reworded after a review.';
    reloaded.product.summary = 'A new summary.';
    const before = new Map(buildDocuments(BASE, facts).map((document) => [document.id, document.url]));
    const after = new Map(buildDocuments(BASE, reloaded).map((document) => [document.id, document.url]));
    expect(after).toEqual(before);
  });

  it('carry the facts as Markdown, with the approval rule of each start option', () => {
    const overview = library.find('overview')!;
    expect(overview.text).toMatch(new RegExp(`^# ${facts.product.name}\n`));
    for (const line of [facts.product.summary, ...facts.product.capabilities, ...facts.product.notOffered])
      expect(overview.text).toContain(line);
    expect(overview.metadata).toEqual({ source: 'overview', reviewedOn: facts.product.reviewedOn });
    for (const option of facts.startOptions) {
      const document = library.find(`start:${option.id}`)!;
      expect(document.text).toContain(`Needs a person's approval before an agent takes it: ${option.requiresHumanApproval ? 'yes' : 'no'}`);
      expect(document.metadata).toMatchObject({ source: 'start-option', requiresHumanApproval: option.requiresHumanApproval });
    }
  });
});

describe('the ranking', () => {
  it('cuts text into lower-cased words of letters and digits, accents removed', () => {
    expect(wordsOf('Gállery: full-resolution, 14-day Trial!')).toEqual(['gallery', 'full', 'resolution', '14', 'day', 'trial']);
  });

  // Pinned on the sample facts: a change to the ranking or the documents shows here.
  it.each([
    ['free trial', ['start:start-free-trial']],
    ['PRICING', ['resource:pricing']],
    ['privacy policy', ['resource:privacy']],
    ['status incidents', ['resource:status']],
    // A query word of three characters or more also finds the words it begins: "doc" finds "Documentation".
    ['doc', ['resource:docs', 'resource:openapi', 'start:read-the-docs']],
    // Title matches first ("Documentation" is not "docs"; docs.example.com in the text is).
    ['docs', ['resource:docs', 'start:read-the-docs']],
    // Common words are dropped; ties keep the facts' order.
    ['how do I start', ['start:read-the-docs', 'start:start-free-trial']],
    ['api', ['overview', 'resource:openapi', 'resource:mcp']],
    [
      'Gállery demo',
      ['start:view-demo-gallery', 'start:create-first-gallery', 'overview', 'start:read-the-docs', 'start:start-free-trial'],
    ],
  ])('%j finds %j, in that order', (query, expected) => {
    expect(ids(query)).toEqual(expected);
  });

  it.each(['zzzz', 'the', 'what does it cost', '!!!'])('%j finds nothing, a valid answer', (query) => {
    expect(library.search(query)).toEqual({ results: [] });
  });

  it('gives the same answer every time, each result with the id, title and URL of its document', () => {
    const first = library.search('gallery');
    expect(library.search('gallery')).toEqual(first);
    for (const result of first.results) {
      const { id, title, url } = library.find(result.id)!;
      expect(result).toEqual({ id, title, url });
    }
  });
});
