/**
 * @module The MCP prompts: message templates a person picks in their host, made from the facts
 * (the same Markdown documents `fetch` serves). Read-only like the tools; the arguments' schema
 * is valibot's, handed to the SDK, which validates `prompts/get` against it.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { approvalSentences, privacySentence } from '../facts/product-rules.ts';
import type { Product } from '../facts/schema.ts';
import type { Document, Library } from './documents.ts';
import { PlanSafeStartArgs } from './schemas.ts';

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: { type: 'text'; text: string };
}

export interface Prompt {
  name: string;
  title: string;
  description: string;
  /** Absent for a prompt without arguments. */
  args?: v.GenericSchema;
  messages: (facts: Product, library: Library, args: Record<string, string | undefined>) => PromptMessage[];
}

const user = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });
const bySource = (library: Library, source: Document['metadata']['source']) =>
  library.documents.filter((document) => document.metadata.source === source);

export const PROMPTS: Prompt[] = [
  {
    name: 'explain_product',
    title: 'Explain the product',
    description:
      'Messages that embed the reviewed product overview and ask for a plain explanation of what the product is for and who it serves.',
    messages: ({ product }, library) => [
      user(
        `Explain what ${product.name} is for, who it serves and what it does not do, in a few short paragraphs. ` +
          `Use only the reviewed facts below (reviewed on ${product.reviewedOn}) and cite ${library.find('overview')!.url}.`,
      ),
      user(library.find('overview')!.text),
    ],
  },
  {
    name: 'plan_safe_start',
    title: 'Plan a safe start',
    description:
      "Messages that embed the start options, with which of them need a person's approval, and ask for a short plan to get started, " +
      'optionally towards a goal.',
    args: PlanSafeStartArgs,
    messages: (facts, library, { goal }) => {
      const options = bySource(library, 'start-option');
      const approval = options.filter((option) => option.metadata.requiresHumanApproval).map((option) => option.title);
      const rules = [privacySentence(facts), approvalSentences(facts)].filter(Boolean).join(' ');
      return [
        user(
          `Plan a safe way to start with ${facts.product.name}${goal ? ` for this goal: "${goal}"` : ''}. ` +
            'Choose among the start options below. ' +
            (approval.length > 0
              ? `These need a person's approval before anyone acts on them, so present them to me to decide rather than taking them: ${approval.join('; ')}.`
              : "None of them needs a person's approval.") +
            (rules ? ` ${rules}` : ''),
        ),
        user(options.map((option) => option.text).join('\n')),
      ];
    },
  },
];

/** The prompts as `prompts/list` shows them: the SDK derives each argument from the same schema. */
export function listedPrompts() {
  return PROMPTS.map(({ name, title, description, args }) => {
    if (!args) return { name, title, description };
    const { properties = {}, required = [] } = toJsonSchema(args, { target: 'draft-2020-12' }) as {
      properties?: Record<string, { description?: string }>;
      required?: string[];
    };
    const listed = Object.entries(properties).map(([name, { description }]) => ({ name, description, required: required.includes(name) }));
    return { name, title, description, arguments: listed };
  });
}
