/** The table of known agents: what robots.txt names, and the class an MCP client gets. */
import { describe, expect, it } from 'vitest';
import { AI_AGENTS, KNOWN_AGENTS, mcpAgentOf, REQUIRED_AI_AGENTS } from '../../src/agents/table.ts';
import { CONTRACT_AI_AGENTS } from '../support/cases.ts';

describe('the known agents', () => {
  it('names every AI agent robots.txt must list, and no web search engine', () => {
    expect(AI_AGENTS).toEqual(expect.arrayContaining(CONTRACT_AI_AGENTS));
    expect(AI_AGENTS).not.toContain('Googlebot');
    expect(REQUIRED_AI_AGENTS).toEqual(CONTRACT_AI_AGENTS);
  });

  it('says of each agent whether its User-Agent names it or only a signature can, and gives robots.txt only the former', () => {
    for (const [name, entry] of Object.entries(KNOWN_AGENTS)) expect(['user-agent', 'signature'], name).toContain(entry.identifiedBy);
    expect(KNOWN_AGENTS['ChatGPT-Agent']).toEqual({
      agentClass: 'ai-assistant',
      identifiedBy: 'signature',
      signatureAgent: 'https://chatgpt.com',
    });
    // Google-Agent signs with an ordinary Chrome User-Agent (Signature-Agent: https://agent.bot.goog).
    expect(KNOWN_AGENTS['Google-Agent']).toEqual({
      agentClass: 'ai-assistant',
      identifiedBy: 'signature',
      signatureAgent: 'https://agent.bot.goog',
    });
    expect(AI_AGENTS).not.toContain('ChatGPT-Agent');
    expect(AI_AGENTS).not.toContain('Google-Agent');
    expect(AI_AGENTS).toEqual(expect.arrayContaining(['Claude-Code', 'Gemini-Deep-Research', 'Google-NotebookLM', 'Amzn-User']));
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
