/** The table of known agents: what robots.txt names, and the class an MCP client gets. */
import { describe, expect, it } from 'vitest';
import { AI_AGENTS, mcpAgentOf } from '../src/agents.ts';

describe('the known agents', () => {
  it('names every AI agent robots.txt must list, and no web search engine', () => {
    expect(AI_AGENTS).toEqual(
      expect.arrayContaining([
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
      ]),
    );
    expect(AI_AGENTS).not.toContain('Googlebot');
  });

  it('makes an MCP client of anything but a known agent, named only from the closed list', () => {
    expect(mcpAgentOf({ agentClass: 'ai-assistant', agentName: 'Claude-User' }, 'claude-ai')).toEqual({
      agentClass: 'ai-assistant',
      agentName: 'Claude-User',
    });
    expect(mcpAgentOf({ agentClass: 'other' }, 'claude-ai')).toEqual({ agentClass: 'mcp-client', agentName: 'claude-ai' });
    expect(mcpAgentOf({ agentClass: 'browser' }, 'my very own client 1.0')).toEqual({ agentClass: 'mcp-client' });
  });
});
