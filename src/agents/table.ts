/**
 * @module The kinds of agent that read the facts, and what each well-known agent is for: the one
 * table of ours (`KNOWN_AGENTS`). The access log, the spans and the metrics name a request's class
 * (user-agent.ts recognises it), and robots.txt gives each AI agent a group of its own.
 */

export type AgentClass = 'ai-assistant' | 'ai-search' | 'ai-training' | 'search-engine' | 'mcp-client' | 'browser' | 'other';

/**
 * How a known agent can be told apart: its `User-Agent` names it (`user-agent`), or only a Web Bot
 * Auth signature can (`signature`: it sends an ordinary browser's User-Agent, so no class here sees it).
 */
export type Identification = 'user-agent' | 'signature';

export interface KnownAgentEntry {
  /** What it is for, as its operator describes it. */
  agentClass: AgentClass;
  identifiedBy: Identification;
  /** The origin its Web Bot Auth signatures name in `Signature-Agent`, where its operator publishes one. */
  signatureAgent?: string;
}

const byUserAgent = (agentClass: AgentClass, signatureAgent?: string): KnownAgentEntry =>
  signatureAgent ? { agentClass, identifiedBy: 'user-agent', signatureAgent } : { agentClass, identifiedBy: 'user-agent' };

/**
 * What each known agent is for, as its operator describes it: fetching for a person now
 * (`ai-assistant`), indexing for an AI search (`ai-search`), collecting training data (`ai-training`),
 * or a web search engine; and whether its User-Agent names it. The names are those of the maintained
 * lists (crawler-user-agents, isbot), which recognise them; Google-Extended and Applebot-Extended are
 * robots.txt tokens only (their crawlers send Googlebot's and Applebot's user agents). Added in 2026
 * from those lists: Claude-Code, Gemini-Deep-Research, Google-NotebookLM, Amzn-User, Bravebot,
 * Manus-User, Devin, Google-Gemini-CLI, kagi-fetcher, Google-CloudVertexBot, and Google's and ChatGPT's
 * agents, which only their signatures name.
 */
export const KNOWN_AGENTS = {
  'ChatGPT-User': byUserAgent('ai-assistant'),
  'Claude-User': byUserAgent('ai-assistant'),
  'Perplexity-User': byUserAgent('ai-assistant'),
  'MistralAI-User': byUserAgent('ai-assistant'),
  'Claude-Code': byUserAgent('ai-assistant'),
  'Gemini-Deep-Research': byUserAgent('ai-assistant'),
  'Google-NotebookLM': byUserAgent('ai-assistant'),
  'Google-Gemini-CLI': byUserAgent('ai-assistant'),
  'Amzn-User': byUserAgent('ai-assistant'),
  'Manus-User': byUserAgent('ai-assistant'),
  Devin: byUserAgent('ai-assistant'),
  'kagi-fetcher': byUserAgent('ai-assistant'),
  // Google's and ChatGPT's agents browse with Chrome's User-Agent and sign their requests (Signature-Agent:
  // "https://agent.bot.goog", "https://chatgpt.com"): only a signature tells them apart.
  'Google-Agent': { agentClass: 'ai-assistant', identifiedBy: 'signature', signatureAgent: 'https://agent.bot.goog' },
  'ChatGPT-Agent': { agentClass: 'ai-assistant', identifiedBy: 'signature', signatureAgent: 'https://chatgpt.com' },
  'OAI-SearchBot': byUserAgent('ai-search'),
  'Claude-SearchBot': byUserAgent('ai-search'),
  PerplexityBot: byUserAgent('ai-search'),
  DuckAssistBot: byUserAgent('ai-search'),
  'Google-CloudVertexBot': byUserAgent('ai-search'),
  GPTBot: byUserAgent('ai-training'),
  ClaudeBot: byUserAgent('ai-training'),
  CCBot: byUserAgent('ai-training'),
  'Google-Extended': byUserAgent('ai-training'),
  'Applebot-Extended': byUserAgent('ai-training'),
  'meta-externalagent': byUserAgent('ai-training'),
  Bytespider: byUserAgent('ai-training'),
  Googlebot: byUserAgent('search-engine'),
  bingbot: byUserAgent('search-engine'),
  Applebot: byUserAgent('search-engine'),
  DuckDuckBot: byUserAgent('search-engine'),
  YandexBot: byUserAgent('search-engine'),
  Bravebot: byUserAgent('search-engine'),
} as const satisfies Record<string, KnownAgentEntry>;

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

/** The AI agents robots.txt names one by one: every class but web search, of those a User-Agent names (robots.txt matches on it). */
export const AI_AGENTS = (Object.keys(KNOWN_AGENTS) as KnownAgent[]).filter(
  (name) => KNOWN_AGENTS[name].agentClass.startsWith('ai-') && KNOWN_AGENTS[name].identifiedBy === 'user-agent',
);

/** The agents a User-Agent names: the ones `agentOf` can recognise. */
export const USER_AGENT_NAMES = (Object.keys(KNOWN_AGENTS) as KnownAgent[]).filter(
  (name) => KNOWN_AGENTS[name].identifiedBy === 'user-agent',
);

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
