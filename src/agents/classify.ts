/**
 * @module Which kind of agent sent a request, from its `User-Agent`: recognised by two maintained
 * data sets from npm (crawler-user-agents' patterns, isbot's), never by patterns written here, and
 * named from the table in table.ts. Loaded only by a service that logs or observes requests: the
 * crawler list alone is 440 KB to parse.
 */
import crawlerList from 'crawler-user-agents';
import { findBotMatches, isbot } from 'isbot';
import { KNOWN_AGENTS, USER_AGENT_NAMES, type Agent } from './table.ts';

// crawler-user-agents' own advice: one alternation of the patterns, matched case-insensitively; only
// those of AI and search crawlers and of agents driving a browser (about 280 of 1,500), as the whole
// list costs about 2 ms a match.
const CRAWLER_TAGS = new Set(['ai-crawler', 'search-engine', 'browser-automation']);
// The list's .d.mts leaves out the `tags` every entry of its JSON carries.
const crawlers = crawlerList as readonly { pattern: string; tags?: string[] }[];
const crawlerPattern = new RegExp(
  crawlers
    .filter(({ tags }) => tags?.some((tag) => CRAWLER_TAGS.has(tag)))
    .map(({ pattern }) => `(?:${pattern})`)
    .join('|'),
  'gi',
);
// Only the names a User-Agent carries: an agent only a signature names is never guessed from one.
const knownNames = [...USER_AGENT_NAMES].sort((a, b) => b.length - a.length);
const nameOf = (fragment: string) => knownNames.find((name) => fragment.toLowerCase().startsWith(name.toLowerCase()));

/** The class of a known agent, or of an unknown one from what the data sets say of it. */
function classify(userAgent: string): Agent {
  const fragments = [...userAgent.matchAll(crawlerPattern)].map((match) => match[0]);
  const bot = fragments.length > 0 || isbot(userAgent);
  if (!bot) return { agentClass: /^Mozilla\/5\.0 \(/.test(userAgent) ? 'browser' : 'other' };
  // isbot's fragments end at the product token ("ClaudeBot/1.0;"): words the crawler list lacks.
  for (const fragment of [...fragments, ...findBotMatches(userAgent)]) {
    const agentName = nameOf(fragment);
    if (agentName) return { agentClass: KNOWN_AGENTS[agentName].agentClass, agentName };
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
