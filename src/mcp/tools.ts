/**
 * @module The read-only MCP tools over the reviewed facts: name, title, description, input and
 * output schemas (the same valibot schemas as the REST body) and the answer. A description says
 * what the tool returns and when it is useful, and never tells the model what to do: the hosts'
 * directories read such wording as prompt injection, so guidance goes in the server's instructions.
 */
import type * as v from 'valibot';
import { legacyFlagOf } from '../facts/legacy-flag.ts';
import { listed, neverReturnedPhrase } from '../facts/product-rules.ts';
import type * as factsSchemas from '../facts/schema.ts';
import type * as mcpSchemas from './schemas.ts';
import type { Product, ResourceKind } from '../facts/schema.ts';
import type { Library } from './documents.ts';

/** The schemas a tool's input and output are picked from (by the MCP server and the docs), so that naming them builds none. */
export interface ToolShapes {
  facts: typeof factsSchemas;
  mcp: typeof mcpSchemas;
}

export interface ToolContext {
  facts: Product;
  library: Library;
}

export interface Tool {
  name: string;
  title: string;
  description: (facts: Product) => string;
  /** The input schema, picked from the shapes by what describes the tool (a start builds no schema). */
  input: (shapes: ToolShapes) => v.GenericSchema;
  /** The output schema for these facts (a start option's fields are as these facts give them). */
  output: (shapes: ToolShapes, facts: Product) => v.GenericSchema;
  /** The structured result; a thrown Error becomes a result with `isError: true` carrying its message. */
  answer: (context: ToolContext, args: Record<string, unknown>) => Record<string, unknown>;
}

/** A resource kind as the tool's description names it: only the kinds the facts have are named. */
const KIND_WORDS: Record<ResourceKind, string> = {
  website: 'website',
  docs: 'docs',
  pricing: 'pricing',
  status: 'status',
  support: 'support',
  terms: 'terms',
  privacy: 'privacy',
  openapi: 'the OpenAPI document',
  mcp: 'the MCP endpoint',
};

export const TOOLS: Tool[] = [
  {
    name: 'get_product_overview',
    title: 'Product overview',
    description: (facts) => {
      const kept = neverReturnedPhrase(facts);
      return (
        `Returns the reviewed facts about ${facts.product.name}: what it is, who it is for, what it can do, ` +
        `what the public API does not do${kept ? ` (none of its answers holds ${kept})` : ''}, ` +
        (facts.product.actionsNeedingApproval ? "which actions need a person's approval and why, " : '') +
        'and the date the facts were reviewed. Useful for questions about ' +
        'what the product is and whether it fits a need. Takes no arguments.'
      );
    },
    input: ({ mcp }) => mcp.NoInput,
    output: ({ facts }) => facts.ProductFacts,
    answer: ({ facts }) => facts.product,
  },
  {
    name: 'list_public_resources',
    title: 'Public resources',
    description: ({ resources }) =>
      `Returns the canonical public resources (${listed([...new Set(resources.map((resource) => KIND_WORDS[resource.kind]))], 'and')}), ` +
      'each with a URL and what it is for; the optional `kind` narrows the list to one kind. Useful for linking to the right official page.',
    input: ({ mcp }) => mcp.ListResourcesInput,
    output: ({ mcp }) => mcp.ResourceList,
    answer: ({ facts }, { kind }) => ({ resources: kind ? facts.resources.filter((resource) => resource.kind === kind) : facts.resources }),
  },
  {
    name: 'list_start_options',
    title: 'Safe start options',
    description: ({ product }) => {
      const actions = product.actionsNeedingApproval?.map((action) => action.action);
      return (
        'Returns the ways to start with the product, each with a URL, the ids of the actions needing approval that it performs ' +
        "(`performs`) and whether it needs a person's approval first (`requiresHumanApproval`" +
        `${actions ? `, true for ${listed(actions, 'and')}` : ''}). Useful for answering how to get started.`
      );
    },
    input: ({ mcp }) => mcp.NoInput,
    output: (shapes, facts) => shapes.facts.servedSchemas(facts).StartOptionList,
    answer: ({ facts }) => ({ startOptions: facts.startOptions }),
  },
  {
    name: 'search',
    title: 'Search the product facts',
    description: (facts) =>
      `Returns the documents about ${facts.product.name} that match the query (the product overview, the public ` +
      'resources and the start options) as `{"results": [{"id", "title", "url"}]}`, best match first: query words ' +
      'found in the title rank before words found only in the text. An empty list means nothing matched. Each id ' +
      'can be passed to fetch.',
    input: ({ mcp }) => mcp.SearchInput,
    output: ({ mcp }) => mcp.SearchOutput,
    answer: ({ library }, { query }) => library.search(query as string),
  },
  {
    name: 'fetch',
    title: 'Fetch a document',
    description: () =>
      'Returns one document found by search, by its id, as `{"id", "title", "text", "url", "metadata"}`: the text ' +
      'is Markdown and the url the canonical page to cite. An unknown id gives an error result naming it.',
    input: ({ mcp }) => mcp.FetchInput,
    output: ({ mcp }, facts) => mcp.fetchOutputSchema(legacyFlagOf(facts) !== 'absent'),
    answer: ({ library }, { id }) => {
      const document = library.find(id as string);
      if (!document) throw new Error(`No document has the id ${JSON.stringify(id)}. Ids come from search results, e.g. "overview".`);
      return document;
    },
  },
];

export const TOOL_NAMES = TOOLS.map((tool) => tool.name);
