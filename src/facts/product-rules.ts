/**
 * @module The product's own privacy and approval rules, read from its facts: the one approval rule
 * start-up enforces, and the sentences every served text (llms.txt, Markdown, MCP, OpenAPI) uses to
 * say what is never returned, which actions need a person's approval and why, and what lies under the
 * product's private contract. The words come from the facts (but v1's `createsGallery`, which names itself).
 */
import type { Product, StartOption } from './schema.ts';
import { inline } from '../util/text.ts';

type Facts = Pick<Product, 'product'>;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const withoutStop = (text: string) => inline(text).replace(/[.;]+$/, '');

/** An action a start option performs that needs a person's approval, and where the facts say so. */
export interface ApprovalNeed {
  /** As it reads inside a sentence: "publishing a notebook". */
  action: string;
  reason?: string;
  /** The field that makes it need approval, as a facts file's path. */
  field: string;
}

/**
 * The approval rule, stated once: a start option needs a person's approval (`requiresHumanApproval:
 * true`) when it performs an action listed in `product.actionsNeedingApproval`, or when it carries
 * v1's `createsGallery: true`, which always needed one. Empty when the option needs none.
 */
export function approvalNeeds(option: Pick<StartOption, 'performs' | 'createsGallery'>, facts: Facts): ApprovalNeed[] {
  const actions = facts.product.actionsNeedingApproval ?? [];
  const needs = (option.performs ?? []).flatMap((id): ApprovalNeed[] => {
    const index = actions.findIndex((action) => action.id === id);
    const { action, reason } = actions[index] ?? {};
    return action ? [{ action, reason, field: `product.actionsNeedingApproval[${index}]` }] : [];
  });
  // v1's flag, for facts that name no action of their own for it.
  if (needs.length === 0 && option.createsGallery === true) needs.push({ action: 'creating a gallery', field: 'createsGallery' });
  return needs;
}

/** "a, b or c" (`or`), "a, b and c" (`and`). */
export function listed(items: readonly string[], conjunction: 'and' | 'or'): string {
  const words = items.map(inline);
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

/** "publishing a notebook, because it makes ...": an action with its reason, inside a sentence. */
export const needPhrase = ({ action, reason }: Pick<ApprovalNeed, 'action' | 'reason'>) =>
  reason ? `${withoutStop(action)}, because ${withoutStop(reason)}` : withoutStop(action);

/** "galleries, clients, accounts, sessions or tokens"; undefined when the facts do not say. */
export const neverReturnedPhrase = ({ product }: Facts): string | undefined =>
  product.neverReturned ? listed(product.neverReturned.map(withoutStop), 'or') : undefined;

/** "This service never returns notebooks, collaborators or API keys." Empty when the facts do not say. */
export function privacySentence(facts: Facts): string {
  const phrase = neverReturnedPhrase(facts);
  return phrase ? `This service never returns ${phrase}.` : '';
}

/** One sentence per action of `product.actionsNeedingApproval`: "Publishing a notebook needs a person's approval, because ...". */
export function approvalSentences({ product }: Facts): string {
  return (product.actionsNeedingApproval ?? [])
    .map(({ action, reason }) => `${capitalised(withoutStop(action))} needs a person's approval, because ${withoutStop(reason)}.`)
    .join(' ');
}

/** What an agent does with such an action: the service's own rule, in general words. */
export const AGENT_APPROVAL_RULE = "An agent may show a start option that needs a person's approval, never take it for someone.";

/** Whether any start option needs a person's approval: the texts state the agent's rule only then. */
export const needsApproval = ({ startOptions }: Pick<Product, 'startOptions'>): boolean =>
  startOptions.some((option) => option.requiresHumanApproval);

/** The agent's rule where some start option needs approval; empty where none does. */
export const agentRule = (facts: Pick<Product, 'startOptions'>): string => (needsApproval(facts) ? AGENT_APPROVAL_RULE : '');

/** "Outside this public API, under the private contract of X: a; b; c." Empty when the facts do not say. */
export function privateContractSentence({ product }: Facts): string {
  const items = product.privateContract?.map(withoutStop);
  return items ? `Outside this public API, under the private contract of ${inline(product.name)}: ${items.join('; ')}.` : '';
}

/** A start option's approval line: whether it needs a person's approval, and why when the facts say. */
export function approvalRule(option: Pick<StartOption, 'performs' | 'createsGallery' | 'requiresHumanApproval'>, facts: Facts): string {
  if (!option.requiresHumanApproval) return 'Needs no approval.';
  const needs = approvalNeeds(option, facts);
  return needs.length === 0 ? "Needs a person's approval first." : `Needs a person's approval first: ${needs.map(needPhrase).join('; ')}.`;
}

/** The privacy and approval rules as one paragraph, the words every text that states them shares. */
export function rulesParagraph(facts: Pick<Product, 'product' | 'startOptions'>): string {
  return [privacySentence(facts), privateContractSentence(facts), approvalSentences(facts), agentRule(facts)].filter(Boolean).join(' ');
}
