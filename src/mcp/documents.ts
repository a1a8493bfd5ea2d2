/**
 * @module The documents the `search` and `fetch` tools serve, in the shapes ChatGPT's connectors
 * read: the product overview, each public resource and each start option, as Markdown with a
 * canonical URL. Ids come from the facts (`overview`, `resource:<id or kind>`, `start:<id>`), never
 * from a counter, so they stay the same across reloads as long as the thing they name stays.
 *
 * Ranking, simple and deterministic: the query and each document are cut into words (letters and
 * digits, case and accents ignored); the query's common English words ("how", "the", "what"...)
 * are dropped. A query word matches a document word that equals it or, when the query word has
 * three characters or more, begins with it ("doc" finds "docs"). Documents
 * are ordered by how many query words match a word of the title, then of the whole text (title
 * included), then in the facts' order (overview, resources, start options); a document that
 * matches no query word is left out, so a search may find nothing.
 */
import { resourceId } from '../facts/check.ts';
import { approvalNeeds, needPhrase } from '../facts/product-rules.ts';
import { md, mdUrl } from '../discovery/markdown.ts';
import { PRODUCT_PATH } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import type { FetchOutput, SearchOutput } from './schemas.ts';

export type Document = Required<FetchOutput>;

export interface Library {
  documents: readonly Document[];
  /** The document with this id, if any. */
  find(id: string): Document | undefined;
  search(query: string): SearchOutput;
}

// The texts are Markdown: facts text in them is escaped (`md`), so it reads as written.
const list = (heading: string, items: readonly string[]) => `## ${heading}\n\n${items.map((item) => `- ${md(item)}`).join('\n')}\n`;
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

export function buildDocuments(base: string, facts: Product): Document[] {
  const { product } = facts;
  const reviewedOn = product.reviewedOn;
  const overview: Document = {
    id: 'overview',
    title: `${product.name}: product overview`,
    url: `${base}${PRODUCT_PATH}`,
    text: [
      `# ${md(product.name)}\n`,
      `${md(product.summary)}\n`,
      list('Who it is for', product.audiences),
      list('What it can do', product.capabilities),
      list('What the public API does not do', product.notOffered),
      ...(product.neverReturned ? [list('Private data it never returns', product.neverReturned)] : []),
      ...(product.actionsNeedingApproval
        ? [list("Actions that need a person's approval", product.actionsNeedingApproval.map(needPhrase))]
        : []),
      ...(product.privateContract ? [list('Outside this public API (the private contract)', product.privateContract)] : []),
      `Facts reviewed on ${reviewedOn}.\n`,
    ].join('\n'),
    metadata: { source: 'overview', reviewedOn },
  };
  const resources = facts.resources.map(
    (resource): Document => ({
      id: `resource:${resourceId(resource)}`,
      title: resource.title,
      url: resource.url,
      text: `# ${md(resource.title)}\n\n${md(resource.description)}\n\n- Kind: ${resource.kind}\n- URL: ${mdUrl(resource.url)}\n`,
      metadata: { source: 'resource', reviewedOn, kind: resource.kind },
    }),
  );
  const startOptions = facts.startOptions.map((option): Document => {
    const needs = approvalNeeds(option, facts);
    return {
      id: `start:${option.id}`,
      title: option.title,
      url: option.url,
      text:
        `# ${md(option.title)}\n\n${md(option.description)}\n\n- URL: ${mdUrl(option.url)}\n` +
        // v1's flag, written only for the facts that give it.
        (option.createsGallery === undefined ? '' : `- Creates a gallery: ${yesNo(option.createsGallery)}\n`) +
        `- Needs a person's approval before an agent takes it: ${yesNo(option.requiresHumanApproval)}\n` +
        (needs.length > 0 ? `- Why: ${md(needs.map(needPhrase).join('; '))}\n` : ''),
      metadata: {
        source: 'start-option',
        reviewedOn,
        requiresHumanApproval: option.requiresHumanApproval,
        ...(option.createsGallery === undefined ? {} : { createsGallery: option.createsGallery }),
        ...(option.performs ? { performs: option.performs } : {}),
      },
    };
  });
  return [overview, ...resources, ...startOptions];
}

/** Lower-cased words of letters and digits, accents removed. */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Words too common to tell documents apart. */
const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from how i in is it its me my of on or the to what when where which who why with you your'.split(
    ' ',
  ),
);

const matches = (queryWord: string, words: ReadonlySet<string>) => {
  if (words.has(queryWord)) return true;
  if (queryWord.length < 3) return false;
  for (const word of words) if (word.startsWith(queryWord)) return true;
  return false;
};

export function createLibrary(base: string, facts: Product): Library {
  const documents = buildDocuments(base, facts);
  const byId = new Map(documents.map((document) => [document.id, document]));
  // The words of each document are cut once, not per search.
  const indexed = documents.map((document, order) => ({
    document,
    order,
    title: new Set(wordsOf(document.title)),
    text: new Set([...wordsOf(document.title), ...wordsOf(document.text)]),
  }));
  return {
    documents,
    find: (id) => byId.get(id),
    search(query) {
      const queryWords = [...new Set(wordsOf(query))].filter((word) => !STOP_WORDS.has(word));
      const count = (words: ReadonlySet<string>) => queryWords.filter((word) => matches(word, words)).length;
      const results = indexed
        .map((entry) => ({ ...entry, titleHits: count(entry.title), textHits: count(entry.text) }))
        .filter((entry) => entry.textHits > 0)
        .sort((a, b) => b.titleHits - a.titleHits || b.textHits - a.textHits || a.order - b.order)
        .map(({ document: { id, title, url } }) => ({ id, title, url }));
      return { results };
    },
  };
}
