import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentOf } from '../../src/agents/classify.ts';
import { KNOWN_AGENTS, USER_AGENT_NAMES } from '../../src/agents/table.ts';

// Real user agents, as their operators publish them.
const cases = [
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    'ai-assistant',
    'ChatGPT-User',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
    'ai-assistant',
    'Claude-User',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
    'ai-assistant',
    'Perplexity-User',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
    'ai-search',
    'OAI-SearchBot',
  ],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)',
    'ai-search',
    'Claude-SearchBot',
  ],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)', 'ai-training', 'GPTBot'],
  ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'ai-training', 'ClaudeBot'],
  ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'ai-training', 'CCBot'],
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'search-engine', 'Googlebot'],
  ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'search-engine', 'bingbot'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'browser', undefined],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'browser',
    undefined,
  ],
  // Names that appeared in 2026, in the user agents the maintained list records for them.
  ['claude-code/2.1.86 (external, cli)', 'ai-assistant', 'Claude-Code'],
  [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Gemini-Deep-Research; +https://gemini.google/overview/deep-research/) Chrome/135.0.0.0 Safari/537.36',
    'ai-assistant',
    'Gemini-Deep-Research',
  ],
  ['Mozilla/5.0 (compatible; Google-NotebookLM; +https://notebooklm.google.com/)', 'ai-assistant', 'Google-NotebookLM'],
  ['Mozilla/5.0 (compatible; Amzn-User; +https://developer.amazon.com/)', 'ai-assistant', 'Amzn-User'],
  ['BraveBot / Mozilla/5.0 (compatible; BraveBot/1.0)', 'search-engine', 'Bravebot'],
  // Claude Code fetching a page on a person's behalf says Claude-User, the token Anthropic documents for it.
  ['Claude-User (claude-code/2.1.86; +https://support.anthropic.com/)', 'ai-assistant', 'Claude-User'],
  ['curl/8.5.0', 'other', undefined],
  ['python-requests/2.32.3', 'other', undefined],
] as const;

describe('agentOf', () => {
  it.each(cases)('%s is %s', (userAgent, agentClass, agentName) => {
    expect(agentOf(userAgent)).toEqual(agentName ? { agentClass, agentName } : { agentClass });
  });

  it('puts a request with no User-Agent in other', () => {
    expect(agentOf(null)).toEqual({ agentClass: 'other' });
    expect(agentOf('')).toEqual({ agentClass: 'other' });
  });

  it('answers the same for a user agent seen again, past the bound of those remembered', () => {
    for (let i = 0; i < 1500; i++) agentOf(`random-agent/${i}`);
    expect(agentOf(cases[0][0])).toEqual({ agentClass: 'ai-assistant', agentName: 'ChatGPT-User' });
  });
});

/** crawler-user-agents' own list: each pattern with the user agents it records. */
const maintained = JSON.parse(
  readFileSync(new URL('../../node_modules/crawler-user-agents/crawler-user-agents.json', import.meta.url), 'utf8'),
) as {
  pattern: string;
  instances?: string[];
}[];

describe('the known agents a User-Agent names', () => {
  // The names added from the maintained lists in 2026 (Claude-Code is recorded inside Claude-User's entry: the cases above hold it).
  const added = [
    'Gemini-Deep-Research',
    'Google-NotebookLM',
    'Google-Gemini-CLI',
    'Amzn-User',
    'Manus-User',
    'Devin',
    'kagi-fetcher',
    'Google-CloudVertexBot',
    'Bravebot',
  ] as const;

  it.each(added)('recognises %s in every user agent the maintained list records for it', (name) => {
    // Every user agent of the list that carries the name as a token of its own (not inside a longer one).
    const token = new RegExp(`(?:^|[^\\w-])${name}(?:[^\\w-]|$)`, 'i');
    const instances = maintained.flatMap((entry) => entry.instances ?? []).filter((instance) => token.test(instance));
    expect(instances.length, `the list records ${name}`).toBeGreaterThan(0);
    for (const instance of instances)
      expect(agentOf(instance), instance).toEqual({ agentClass: KNOWN_AGENTS[name].agentClass, agentName: name });
  });

  it('never names an agent only a signature identifies from a User-Agent', () => {
    for (const name of ['ChatGPT-Agent', 'Google-Agent'] as const) {
      expect(KNOWN_AGENTS[name].identifiedBy, name).toBe('signature');
      expect(USER_AGENT_NAMES).not.toContain(name);
    }
    // Not even from a user agent that carries the name, as the maintained list records one for Google-Agent.
    const named = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko; compatible; Google-Agent)';
    expect(agentOf(named).agentName).toBeUndefined();
    const chrome = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';
    expect(agentOf(chrome)).toEqual({ agentClass: 'browser' });
  });
});
