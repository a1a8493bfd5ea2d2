import { describe, expect, it } from 'vitest';
import { agentOf } from '../../src/agents/classify.ts';

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
