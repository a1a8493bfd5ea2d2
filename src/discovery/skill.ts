/**
 * @module The Agent Skill (agentskills.io `SKILL.md`) made from the facts, never written by hand: when
 * this service is the right source, its MCP tools and REST endpoints, which start options need a
 * person's approval, and the rate limits. The same bytes are served at /skill.md, at the agent-skills
 * well-known path (listed with their digest by its index) and over MCP by the Skills extension.
 */
import { API_PATH, LLMS_FULL_PATH, MCP_PATH, OPENAPI_PATH, PRODUCT_PATH, wellKnownSkillPath, type SkillFile } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { AGENT_APPROVAL_RULE, approvalRule, needsApproval, privacySentence, privateContractSentence } from '../facts/product-rules.ts';
import { link, md } from './markdown.ts';
import { inline } from '../util/text.ts';
import type { SkillIndex } from './schemas.ts';

/** A tool the skill names: the MCP endpoint's tools, handed in by the caller as llms.txt's tool names are. */
export interface SkillTool {
  name: string;
  title: string;
}

/**
 * The skill's name: fixed, as the paths that serve it are (agentskills.io naming: lowercase letters,
 * digits and single hyphens). The product it is about is in its description.
 */
export const SKILL_NAME = 'product-discovery';

/**
 * Over MCP the skill also carries every fact as one file (the product's Markdown), in the folder
 * agentskills.io names for documents an agent reads on demand; the HTTP places serve SKILL.md alone.
 */
export const SKILL_FACTS_FILE = 'references/FACTS.md';

/** The discovery index's schema URI (the agent-skills discovery RFC, v0.2.0), as the contract names it. */
export const SKILL_INDEX_SCHEMA = 'https://agentskills.io/schema/v0.2.0/index.json';

/** agentskills.io: a description is at most 1024 characters. */
const DESCRIPTION_MAX = 1024;

/** When an agent should load the skill: the product-specific wording, in one place. */
function skillDescription(facts: Product): string {
  const name = inline(facts.product.name);
  const text =
    `Reviewed public facts about ${name}: what it is, who it is for, what it does and does not do, its official links ` +
    `and the safe ways to start, from its read-only API and MCP server. Use when a person asks about ${name}, ` +
    `compares it, or wants to try it.`;
  return text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`;
}

// YAML 1.2 double-quoted scalar: JSON's string syntax is a subset of it.
const yamlString = (text: string) => JSON.stringify(text);

export function buildSkillMarkdown(base: string, facts: Product, tools: readonly SkillTool[]): string {
  const name = md(facts.product.name);
  const description = skillDescription(facts);
  return [
    '---',
    `name: ${SKILL_NAME}`,
    `description: ${yamlString(description)}`,
    '---',
    '',
    `# ${name}: public product facts`,
    '',
    `> ${md(facts.product.summary)}`,
    '',
    `These facts were last reviewed on ${facts.product.reviewedOn}. They are served without credentials by ${base}.`,
    '',
    '## When to use this skill',
    '',
    `- A person asks what ${name} is, who it is for, or what it can do.`,
    `- You need the official links of ${name}: ${[...new Set(facts.resources.map((resource) => resource.kind))].join(', ')}.`,
    `- A person wants to start with ${name}: offer the start options below.`,
    '',
    'It is not the right source for anything the public API leaves out:',
    '',
    ...facts.product.notOffered.map((item) => `- ${md(item)}`),
    '',
    ...[privacySentence(facts), privateContractSentence(facts)].filter(Boolean).flatMap((sentence) => [md(sentence), '']),
    '## Through MCP',
    '',
    `Connect to ${base}${MCP_PATH} (Streamable HTTP, stateless, JSON answers, no credentials). Every tool is read-only:`,
    '',
    ...tools.map((tool) => `- \`${tool.name}\`: ${inline(tool.title)}.`),
    '',
    '## Through HTTP',
    '',
    `- ${link('Product facts', `${base}${PRODUCT_PATH}`)}: JSON; send \`Accept: text/markdown\` for Markdown.`,
    `- ${link('API index', `${base}${API_PATH}`)}: every endpoint.`,
    `- ${link('OpenAPI document', `${base}${OPENAPI_PATH}`)}: the contract.`,
    `- ${link('llms-full.txt', `${base}${LLMS_FULL_PATH}`)}: every fact as one Markdown page (over MCP, also this skill's \`${SKILL_FACTS_FILE}\`).`,
    '',
    '## Start options',
    '',
    ...(needsApproval(facts) ? [AGENT_APPROVAL_RULE, ''] : []),
    ...facts.startOptions.map(
      (option) => `- ${link(option.title, option.url)}: ${md(`${option.description} ${approvalRule(option, facts)}`)}`,
    ),
    '',
    '## Rate limits',
    '',
    'Requests are counted per client. Every answer carries `RateLimit-Policy` and `RateLimit` (the quota and what is left);',
    'a `429` answer carries `Retry-After`: wait that many seconds. The answers are cacheable for 60 seconds: reuse them.',
    '',
  ].join('\n');
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** The skill of a set of facts. */
export function skillOf(base: string, facts: Product, tools: readonly SkillTool[]): SkillFile {
  return { name: SKILL_NAME, description: skillDescription(facts), text: buildSkillMarkdown(base, facts, tools) };
}

/** The agent-skills discovery index (v0.2.0): the one skill, its SKILL.md's URL and the digest of its UTF-8 bytes (`sha256:<hex>`). */
export async function buildSkillIndex({ base, skill }: { base: string; skill: SkillFile }): Promise<SkillIndex> {
  const digest = `sha256:${hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(skill.text)))}`;
  return {
    $schema: SKILL_INDEX_SCHEMA,
    skills: [
      {
        name: skill.name,
        type: 'skill-md',
        description: skill.description,
        url: `${base}${wellKnownSkillPath(skill.name)}`,
        digest,
      },
    ],
  };
}
