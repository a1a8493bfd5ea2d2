/**
 * @module The kinds of agent that read the facts, and what each well-known agent is for: the one
 * table of ours (`KNOWN_AGENTS`). The access log, the spans and the metrics name a request's class
 * (user-agent.ts recognises it), and robots.txt gives each AI agent a group of its own.
 */

export type AgentClass = 'ai-assistant' | 'ai-search' | 'ai-training' | 'search-engine' | 'mcp-client' | 'browser' | 'other';

/** Every class, for attribute values that must come from a closed list. */
export const AGENT_CLASSES: readonly AgentClass[] = [
  'ai-assistant',
  'ai-search',
  'ai-training',
  'search-engine',
  'mcp-client',
  'browser',
  'other',
];

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

/** The AI agents the contract requires robots.txt to name; `AI_AGENTS` holds them all. */
export const REQUIRED_AI_AGENTS: readonly KnownAgent[] = [
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'PerplexityBot',
  'Perplexity-User',
  'Google-Extended',
  'CCBot',
  'Applebot-Extended',
  'meta-externalagent',
];

/** The AI agents robots.txt names one by one (every class but web search). */
export const AI_AGENTS = (Object.keys(KNOWN_AGENTS) as KnownAgent[]).filter((name) => KNOWN_AGENTS[name].startsWith('ai-'));

export interface Agent {
  agentClass: AgentClass;
  /** The known agent's name (a `KNOWN_AGENTS` key, or a known MCP client's declared name), when it is one. */
  agentName?: KnownAgent | KnownMcpClient;
  /** The origin of the agent whose Web Bot Auth signature verified (`https://chatgpt.com`), one a policy names. */
  verified?: string;
}

/**
 * MCP clients that declare these names (`clientInfo.name`) are named in the logs, spans and
 * metrics; any other declared name is an `mcp-client` without a name, so a caller's free text
 * never becomes a series.
 */
export const KNOWN_MCP_CLIENTS = [
  'claude-ai',
  'claude-code',
  'openai-mcp',
  'Visual Studio Code',
  'cursor-vscode',
  'mcp-inspector',
] as const;
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
