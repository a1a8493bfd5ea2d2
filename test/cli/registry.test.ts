/**
 * `product-discovery registry`, run through the command line in this process: the server.json of
 * --base or PUBLIC_BASE_URL with the facts of FACTS_FILE; a missing or wrong base URL refused in one
 * line (exit 2), a facts file start-up would refuse refused the same way (exit 1).
 */
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { main } from '../../src/cli.ts';
import { buildServerJson } from '../../src/discovery/registry.ts';
import { sampleFacts } from '../support/handler.ts';

/** Runs the command line, collecting what it prints. */
async function run(args: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text), color: false };
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const code = await main(['registry', ...args], io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    for (const name of Object.keys(env)) if (!(name in saved)) delete process.env[name];
  }
}

describe('product-discovery registry', () => {
  it('is printed by the command for --base, or PUBLIC_BASE_URL, with the facts of FACTS_FILE', async () => {
    const printed = await run(['--base', 'https://api.example.com/']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.out)).toEqual(buildServerJson('https://api.example.com', sampleFacts(), pkg.version));
    const fromEnv = await run([], { PUBLIC_BASE_URL: 'https://discovery.example.org' });
    expect(JSON.parse(fromEnv.out).remotes).toEqual([{ type: 'streamable-http', url: 'https://discovery.example.org/mcp' }]);
  });

  it.each([
    // A command line that gives no base, or an unknown option: a usage error, exit 2.
    [[], /--base/, 2],
    [['--bass', 'https://api.example.com'], /unknown option --bass/, 2],
    // A base URL refused by the rule: one message naming the field, exit 1.
    [['--base', 'ftp://example.com'], /--base="ftp:\/\/example\.com": must use http or https/, 1],
    [['--base', 'https://user:secret@api.example.com'], /--base="https:\/\/\*\*\*@api\.example\.com": must not carry user information/, 1],
    [['--base', ' https://api.example.com'], /--base=" https:\/\/api\.example\.com": must not begin or end with white space/, 1],
  ])('refuses %j in one line naming the fix', async (args, message, code) => {
    const refused = await run(args);
    expect(refused.code).toBe(code);
    expect(refused.err).toMatch(message);
    expect(refused.err.split('\n')).toHaveLength(1);
    expect(refused.err).not.toContain('secret');
  });

  it('refuses PUBLIC_BASE_URL by the same rule, naming the variable', async () => {
    const refused = await run([], { PUBLIC_BASE_URL: 'https://api.example.com/?x=1' });
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/PUBLIC_BASE_URL="https:\/\/api\.example\.com\/\?x=1": must not carry a query/);
  });

  it('refuses a facts file that start-up would refuse, naming it', async () => {
    const refused = await run(['--base', 'https://api.example.com'], { FACTS_FILE: '/nonexistent/facts.json' });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('FACTS_FILE="/nonexistent/facts.json"');
  });
});
