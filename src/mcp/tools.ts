/**
 * @module The read-only MCP tools over the reviewed facts: name, text for the model, input and
 * output schemas (the same valibot schemas as the REST body) and the answer from the facts.
 */
import type * as v from 'valibot';
import { ListResourcesInput, NoInput, ProductFacts, ResourceList, StartOptionList, type Product } from '../schemas.ts';

export interface Tool {
  name: string;
  title: string;
  description: (facts: Product) => string;
  input: v.GenericSchema;
  output: v.GenericSchema;
  answer: (facts: Product, args: Record<string, unknown>) => Record<string, unknown>;
}

export const TOOLS: Tool[] = [
  {
    name: 'get_product_overview',
    title: 'Product overview',
    description: (facts) =>
      `Returns the reviewed facts about ${facts.product.name}: what it is, who it is for, what it can do, ` +
      'what the public API does not do, and the date the facts were reviewed. Call this first to answer ' +
      'questions about the product. Read-only; needs no arguments.',
    input: NoInput,
    output: ProductFacts,
    answer: (facts) => facts.product,
  },
  {
    name: 'list_public_resources',
    title: 'Public resources',
    description: () =>
      'Lists the canonical public resources (website, docs, pricing, status, support, terms, privacy, the ' +
      'OpenAPI document, the MCP endpoint), each with a URL and what it is for. Pass `kind` to get one kind ' +
      'only. Use it to link a person to the right official page instead of guessing a URL.',
    input: ListResourcesInput,
    output: ResourceList,
    answer: (facts, { kind }) => ({ resources: kind ? facts.resources.filter((resource) => resource.kind === kind) : facts.resources }),
  },
  {
    name: 'list_start_options',
    title: 'Safe start options',
    description: () =>
      'Lists the safe ways to start with the product, each with a URL and whether a person must approve it ' +
      "first (`requiresHumanApproval`). Creating a gallery always needs a person's approval: present such " +
      'options to the person, never take them on their behalf.',
    input: NoInput,
    output: StartOptionList,
    answer: (facts) => ({ startOptions: facts.startOptions }),
  },
];

export const TOOL_NAMES = TOOLS.map((tool) => tool.name);
