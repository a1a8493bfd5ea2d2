/**
 * The agent-readiness score, computed as the public scanners do (they probe the host's root and the
 * well-known places), with Agent Rank's published weights: llms.txt 17, MCP 20, OpenAPI 12, Markdown
 * 10, llms-full 8, robots allowing AI 8, skill 8, plain text 5, sitemap 5, homepage JSON-LD 4,
 * latency 3. Each check is made against the running service on every entry; the total must be 100.
 * Latency is measured locally (the median of the root's answers), so it says only that the service
 * adds no delay of its own.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import robotsParser from 'robots-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ENTRIES, startEntry, type RunningEntry } from '../support/entries.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const AI_CRAWLERS = ['GPTBot', 'ClaudeBot', 'PerplexityBot', 'OAI-SearchBot', 'Google-Extended', 'CCBot'];
const LATENCY_SAMPLES = 15;
/** A local answer slower than this (the median) is a delay of the service's own. */
const LATENCY_BUDGET_MS = 200;

type Check = (base: string) => Promise<string | undefined>;

const mediaType = (response: Response) => response.headers.get('content-type')?.split(';')[0]?.trim();

/** Each criterion, its weight and its check: undefined when it passes, else what is missing. */
const CRITERIA: [name: string, weight: number, check: Check][] = [
  [
    'llms.txt',
    17,
    async (base) => {
      const response = await fetch(`${base}/llms.txt`);
      const text = await response.text();
      return response.status === 200 && /^# \S/.test(text) && /^> \S/m.test(text) ? undefined : `${response.status} ${mediaType(response)}`;
    },
  ],
  [
    'MCP',
    20,
    async (base) => {
      const card = await (await fetch(`${base}/.well-known/mcp/server-card.json`)).json();
      const client = new Client({ name: 'agent-rank', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(card.remotes[0].url)));
        const { tools } = await client.listTools();
        return tools.length > 0 ? undefined : 'no tools';
      } finally {
        await client.close();
      }
    },
  ],
  [
    'OpenAPI',
    12,
    async (base) => {
      const document = await (await fetch(`${base}/openapi.json`)).json();
      return /^3\./.test(document.openapi) && Object.keys(document.paths ?? {}).length > 0 ? undefined : 'no OpenAPI 3 document';
    },
  ],
  [
    'Markdown',
    10,
    async (base) => {
      const response = await fetch(`${base}/`, { headers: { accept: 'text/markdown' } });
      return mediaType(response) === 'text/markdown' && /^# \S/.test(await response.text())
        ? undefined
        : `${mediaType(response)} at / for text/markdown`;
    },
  ],
  [
    'llms-full.txt',
    8,
    async (base) => {
      const response = await fetch(`${base}/llms-full.txt`);
      return response.status === 200 && /^# \S/.test(await response.text()) ? undefined : `${response.status}`;
    },
  ],
  [
    'robots allowing AI',
    8,
    async (base) => {
      const text = await (await fetch(`${base}/robots.txt`)).text();
      const robots = robotsParser(`${base}/robots.txt`, text);
      const refused = AI_CRAWLERS.filter((agent) => !robots.isAllowed(`${base}/`, agent) || !text.includes(`User-agent: ${agent}`));
      return refused.length === 0 ? undefined : `no group allowing ${refused.join(', ')}`;
    },
  ],
  [
    'Agent Skill',
    8,
    async (base) => {
      const index = await (await fetch(`${base}/.well-known/agent-skills/index.json`)).json();
      const entry = index.skills?.[0];
      const bytes = new Uint8Array(await (await fetch(entry.url)).arrayBuffer());
      const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
      const front = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(new TextDecoder().decode(bytes))?.[1] ?? '');
      return entry.digest === `sha256:${digest}` && front?.name === entry.name ? undefined : 'index and SKILL.md disagree';
    },
  ],
  [
    'plain text',
    5,
    async (base) => {
      const response = await fetch(`${base}/`, { headers: { accept: 'text/plain' } });
      return response.status === 200 && mediaType(response) === 'text/plain' ? undefined : `${mediaType(response)} at / for text/plain`;
    },
  ],
  [
    'sitemap',
    5,
    async (base) => {
      const robots = robotsParser(`${base}/robots.txt`, await (await fetch(`${base}/robots.txt`)).text());
      const [sitemap] = robots.getSitemaps();
      if (!sitemap) return 'no Sitemap in robots.txt';
      const text = await (await fetch(sitemap)).text();
      return text.includes('http://www.sitemaps.org/schemas/sitemap/0.9') && text.includes(`<loc>${base}/</loc>`)
        ? undefined
        : 'no urlset with the root';
    },
  ],
  [
    'homepage JSON-LD',
    4,
    async (base) => {
      // A browser opening the host: followed to the page it is sent to, read for a JSON-LD block.
      const page = await (await fetch(`${base}/`, { headers: { accept: BROWSER_ACCEPT } })).text();
      const block = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page)?.[1];
      const value = block ? JSON.parse(block) : undefined;
      return value?.['@context'] === 'https://schema.org' && value['@type']
        ? undefined
        : 'no schema.org JSON-LD on the page a browser gets';
    },
  ],
  [
    'latency',
    3,
    async (base) => {
      const times: number[] = [];
      for (let i = 0; i < LATENCY_SAMPLES; i += 1) {
        const start = performance.now();
        await (await fetch(`${base}/`)).arrayBuffer();
        times.push(performance.now() - start);
      }
      const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
      return median < LATENCY_BUDGET_MS ? undefined : `median ${median.toFixed(1)} ms`;
    },
  ],
];

describe('the Agent Rank weights', () => {
  it('sum to 100', () => {
    expect(CRITERIA.reduce((sum, [, weight]) => sum + weight, 0)).toBe(100);
  });
});

describe.each(ENTRIES)('the %s entry, scored as the agent-readiness scanners probe it', (runtime) => {
  let server: RunningEntry;
  beforeAll(async () => {
    server = await startEntry(runtime, { RATE_LIMIT_QUOTA: '100000' });
  }, 90_000);
  afterAll(() => server?.stop());

  it('scores 100 of 100', async () => {
    const missed: string[] = [];
    let score = 0;
    for (const [name, weight, check] of CRITERIA) {
      const problem = await check(server.url).catch((error: Error) => error.message);
      if (problem === undefined) score += weight;
      else missed.push(`${name} (${weight}): ${problem}`);
    }
    expect(missed).toEqual([]);
    expect(score).toBe(100);
  });
});
