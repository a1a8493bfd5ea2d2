/**
 * robots.txt read by an npm robots.txt parser (robots-parser, RFC 9309 matching): every crawler,
 * GPTBot and ClaudeBot among them, may fetch the API, /mcp, /docs and llms.txt; the comments name
 * every discovery document; the Content-Signal line carries CONTENT_SIGNAL.
 */
import robotsParser from 'robots-parser';
import { describe, expect, it } from 'vitest';
import { buildRobotsTxt } from '../../src/discovery/robots.ts';
import { BASE } from '../support/handler.ts';

const DEFAULT_SIGNAL = 'search=yes, ai-input=yes';
const text = buildRobotsTxt(BASE, { contentSignal: DEFAULT_SIGNAL, docsPage: true });

describe('buildRobotsTxt', () => {
  const robots = robotsParser(`${BASE}/robots.txt`, text);

  it.each(['*', 'GPTBot', 'ClaudeBot', 'Googlebot', 'PerplexityBot'])('lets %s fetch every path the service serves', (agent) => {
    for (const path of ['/', '/api/v1', '/api/v1/product', '/api/v1/health', '/openapi.json', '/mcp', '/docs', '/docs/swagger-ui-bundle.0123456789ab.js', '/llms.txt', '/llms-full.txt', '/.well-known/api-catalog', '/.well-known/mcp/server-card.json', '/mcp/server-card', '/problems/rate_limited']) {
      expect(robots.isAllowed(`${BASE}${path}`, agent), `${agent} ${path}`).toBe(true);
    }
  });

  it('names every discovery document in comments', () => {
    const comments = text.split('\n').filter((line) => line.startsWith('#')).join('\n');
    for (const path of ['/.well-known/api-catalog', '/api/v1', '/openapi.json', '/docs', '/llms.txt', '/llms-full.txt', '/mcp', '/.well-known/mcp/server-card.json']) {
      expect(comments).toContain(`${BASE}${path}\n`);
    }
  });

  it('carries the content signal in the group for every crawler', () => {
    const lines = text.split('\n');
    const group = lines.indexOf('User-agent: *');
    expect(group).toBeGreaterThanOrEqual(0);
    expect(lines.slice(group)).toContain(`Content-Signal: ${DEFAULT_SIGNAL}`);
    expect(lines.filter((line) => line.startsWith('Content-Signal:'))).toHaveLength(1);
    const custom = buildRobotsTxt(BASE, { contentSignal: 'search=yes, ai-input=no, ai-train=no', docsPage: true });
    expect(custom).toContain('\nContent-Signal: search=yes, ai-input=no, ai-train=no\n');
  });

  it('does not name the docs page when it is off, and still allows everything', () => {
    const off = buildRobotsTxt(BASE, { contentSignal: DEFAULT_SIGNAL, docsPage: false });
    expect(off).not.toContain('/docs');
    expect(robotsParser(`${BASE}/robots.txt`, off).isAllowed(`${BASE}/api/v1/product`, 'GPTBot')).toBe(true);
  });

  it('has no Disallow and no Sitemap', () => {
    expect(text).not.toMatch(/^Disallow:/im);
    expect(robots.getSitemaps()).toEqual([]);
  });
});
