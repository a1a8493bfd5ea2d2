/**
 * @module Which kind of agent sent a request, from its `User-Agent`: recognised by two maintained
 * data sets from npm (crawler-user-agents' patterns, isbot's), never by patterns written here. What
 * each well-known agent is for is the one table of ours (`KNOWN_AGENTS`): the access log, the spans
 * and the metrics name its class, and robots.txt gives each AI agent a group of its own.
 */
import crawlerList from 'crawler-user-agents';
import { findBotMatches, isbot } from 'isbot';

export type AgentClass = 'ai-assistant' | 'ai-search' | 'ai-training' | 'search-engine' | 'mcp-client' | 'browser' | 'other';

/** Every class, for attribute values that must come from a closed list. */
export const AGENT_CLASSES: readonly AgentClass[] = ['ai-assistant', 'ai-search', 'ai-training', 'search-engine', 'mcp-client', 'browser', 'other'];

/**
 * What each known agent is for, as its operator describes it: fetching for a person now
 * (`ai-assistant`), indexing for an AI search (`ai-search`), collecting training data (`ai-training`),
 * or a web search engine. Google-Extended and Applebot-Extended are robots.txt tokens only (their
 * crawlers send Googlebot's and Applebot's user agents).
 */
export const KNOWN_AGENTS = {
  'ChatGPT-User': 'ai-assistant',
  'Claude-User': 'ai-assistant',
  'Perplexity-User': 'ai-assistant',
  'MistralAI-User': 'ai-assistant',
  'OAI-SearchBot': 'ai-search',
  'Claude-SearchBot': 'ai-search',
  PerplexityBot: 'ai-search',
  DuckAssistBot: 'ai-search',
  GPTBot: 'ai-training',
  ClaudeBot: 'ai-training',
  CCBot: 'ai-training',
  'Google-Extended': 'ai-training',
  'Applebot-Extended': 'ai-training',
  'meta-externalagent': 'ai-training',
  Bytespider: 'ai-training',
  Googlebot: 'search-engine',
  bingbot: 'search-engine',
  Applebot: 'search-engine',
  DuckDuckBot: 'search-engine',
  YandexBot: 'search-engine',
} as const satisfies Record<string, AgentClass>;

export type KnownAgent = keyof typeof KNOWN_AGENTS;

/** The AI agents robots.txt names one by one (every class but web search). */
export const AI_AGENTS = (Object.keys(KNOWN_AGENTS) as KnownAgent[]).filter((name) => KNOWN_AGENTS[name].startsWith('ai-'));

export interface Agent {
  agentClass: AgentClass;
  /** The known agent's name (a `KNOWN_AGENTS` key, or a known MCP client's declared name), when it is one. */
  agentName?: KnownAgent | KnownMcpClient;
}

// crawler-user-agents' own advice: one alternation of the patterns, matched case-insensitively; only
// those of AI and search crawlers (about 260 of 1,500), as the whole list costs about 2 ms a match.
const CRAWLER_TAGS = new Set(['ai-crawler', 'search-engine']);
// The list's .d.mts leaves out the `tags` every entry of its JSON carries.
const crawlers = crawlerList as readonly { pattern: string; tags?: string[] }[];
const crawlerPattern = new RegExp(
  crawlers
    .filter(({ tags }) => tags?.some((tag) => CRAWLER_TAGS.has(tag)))
    .map(({ pattern }) => `(?:${pattern})`)
    .join('|'),
  'gi',
);
const knownNames = (Object.keys(KNOWN_AGENTS) as KnownAgent[]).sort((a, b) => b.length - a.length);
const nameOf = (fragment: string) => knownNames.find((name) => fragment.toLowerCase().startsWith(name.toLowerCase()));

/** The class of a known agent, or of an unknown one from what the data sets say of it. */
function classify(userAgent: string): Agent {
  const fragments = [...userAgent.matchAll(crawlerPattern)].map((match) => match[0]);
  const bot = fragments.length > 0 || isbot(userAgent);
  if (!bot) return { agentClass: /^Mozilla\/5\.0 \(/.test(userAgent) ? 'browser' : 'other' };
  // isbot's fragments end at the product token ("ClaudeBot/1.0;"): words the crawler list lacks.
  for (const fragment of [...fragments, ...findBotMatches(userAgent)]) {
    const agentName = nameOf(fragment);
    if (agentName) return { agentClass: KNOWN_AGENTS[agentName], agentName };
  }
  return { agentClass: 'other' };
}

// User agents repeat: the few a service sees are remembered, up to a bound, so a caller cycling
// through random ones costs memory no longer than the bound.
const remembered = new Map<string, Agent>();
const REMEMBERED_MAX = 1000;

/** The agent a `User-Agent` names; no header is `other`. */
export function agentOf(userAgent: string | null | undefined): Agent {
  if (!userAgent) return { agentClass: 'other' };
  let agent = remembered.get(userAgent);
  if (!agent) {
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    agent = classify(userAgent);
    remembered.set(userAgent, agent);
  }
  return agent;
}

/**
 * MCP clients that declare these names (`clientInfo.name`) are named in the logs, spans and
 * metrics; any other declared name is an `mcp-client` without a name, so a caller's free text
 * never becomes a series.
 */
export const KNOWN_MCP_CLIENTS = ['claude-ai', 'claude-code', 'openai-mcp', 'Visual Studio Code', 'cursor-vscode', 'mcp-inspector'] as const;
export type KnownMcpClient = (typeof KNOWN_MCP_CLIENTS)[number];

/**
 * The agent behind an MCP message: a known agent by its User-Agent stays itself; anything else is an
 * MCP client, named when its declared name is a known one.
 */
export function mcpAgentOf(agent: Agent, declaredName: unknown): Agent {
  if (agent.agentName) return agent;
  const agentName = KNOWN_MCP_CLIENTS.find((name) => name === declaredName);
  return agentName ? { agentClass: 'mcp-client', agentName } : { agentClass: 'mcp-client' };
}
