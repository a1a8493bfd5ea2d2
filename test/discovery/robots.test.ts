/**
 * robots.txt read by an npm robots.txt parser (robots-parser, RFC 9309 matching): every crawler,
 * GPTBot and ClaudeBot among them, may fetch the API, /mcp, /docs and llms.txt; the comments name
 * every discovery document; the Content-Signal line carries CONTENT_SIGNAL, in the `*` group and in
 * a group of each known AI agent (from agents.ts, the one list); Content-Usage carries the same
 * preferences in the IETF vocabulary; the sitemap is found.
 */
import robotsParser from 'robots-parser';
import { describe, expect, it } from 'vitest';
import { AI_AGENTS } from '../../src/agents/table.ts';
import { CONTRACT_AI_AGENTS } from '../support/cases.ts';
import { buildRobotsTxt, contentUsage } from '../../src/discovery/robots.ts';
import { BASE } from '../support/handler.ts';

const DEFAULT_SIGNAL = 'search=yes, ai-input=yes';
const text = buildRobotsTxt({ base: BASE, contentSignal: DEFAULT_SIGNAL, docsPage: true });

describe('buildRobotsTxt', () => {
  const robots = robotsParser(`${BASE}/robots.txt`, text);

  it.each(['*', 'GPTBot', 'ClaudeBot', 'Googlebot', 'PerplexityBot'])('lets %s fetch every path the service serves', (agent) => {
    for (const path of [
      '/',
      '/api/v1',
      '/api/v1/product',
      '/api/v1/health',
      '/openapi.json',
      '/mcp',
      '/docs',
      '/docs/swagger-ui-bundle.0123456789ab.js',
      '/llms.txt',
      '/llms-full.txt',
      '/.well-known/api-catalog',
      '/.well-known/mcp/server-card.json',
      '/mcp/server-card',
      '/problems/rate_limited',
    ]) {
      expect(robots.isAllowed(`${BASE}${path}`, agent), `${agent} ${path}`).toBe(true);
    }
  });

  it('names every discovery document in comments', () => {
    const comments = text
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .join('\n');
    for (const path of [
      '/.well-known/api-catalog',
      '/api/v1',
      '/openapi.json',
      '/docs',
      '/llms.txt',
      '/llms-full.txt',
      '/mcp',
      '/.well-known/mcp/server-card.json',
    ]) {
      expect(comments).toContain(`${BASE}${path}\n`);
    }
  });

  /** The groups of the file (RFC 9309 section 2.1): each user agent with the lines that follow it up to the next. */
  const groups = (robotsTxt: string) =>
    robotsTxt
      .split(/\n(?=User-agent:)/)
      .filter((chunk) => chunk.startsWith('User-agent:'))
      .map((chunk) => chunk.split('\n').filter((line) => line && !line.startsWith('#')));

  it('carries the content signal and usage in the group for every crawler and in one group per known AI agent', () => {
    const found = groups(text);
    expect(found.map((group) => group[0])).toEqual(['User-agent: *', ...AI_AGENTS.map((agent) => `User-agent: ${agent}`)]);
    for (const group of found) {
      expect(group.slice(1, 4)).toEqual([`Content-Signal: ${DEFAULT_SIGNAL}`, 'Content-Usage: search=y', 'Allow: /']);
    }
    const custom = buildRobotsTxt({ base: BASE, contentSignal: 'search=yes, ai-input=no, ai-train=no', docsPage: true });
    expect(custom).toContain('\nContent-Signal: search=yes, ai-input=no, ai-train=no\nContent-Usage: search=y, train-ai=n\n');
  });

  it.each(CONTRACT_AI_AGENTS)('names %s, as the contract requires, and allows it everything', (agent) => {
    expect(AI_AGENTS).toContain(agent);
    expect(text.split('\n')).toContain(`User-agent: ${agent}`);
    expect(robots.isAllowed(`${BASE}/api/v1/product`, agent)).toBe(true);
    expect(robots.isAllowed(`${BASE}/skill.md`, agent)).toBe(true);
  });

  it.each([
    ['search=yes, ai-input=yes', 'search=y'],
    ['search=yes, ai-input=yes, ai-train=no', 'search=y, train-ai=n'],
    ['ai-train=yes, search=no', 'search=n, train-ai=y'],
    ['ai-input=yes', ''],
  ])('maps the content signal %j to the AI-preferences %j', (signal, usage) => {
    expect(contentUsage(signal)).toBe(usage);
  });

  it('leaves the Content-Usage line out when the signal names neither search nor ai-train', () => {
    expect(buildRobotsTxt({ base: BASE, contentSignal: 'ai-input=yes', docsPage: true })).not.toMatch(/^Content-Usage:/m);
  });

  it('does not name the docs page when it is off, and still allows everything', () => {
    const off = buildRobotsTxt({ base: BASE, contentSignal: DEFAULT_SIGNAL, docsPage: false });
    expect(off).not.toContain('/docs');
    expect(robotsParser(`${BASE}/robots.txt`, off).isAllowed(`${BASE}/api/v1/product`, 'GPTBot')).toBe(true);
  });

  it('has no Disallow, and names the sitemap', () => {
    expect(text).not.toMatch(/^Disallow:/im);
    expect(robots.getSitemaps()).toEqual([`${BASE}/sitemap.xml`]);
  });
});
