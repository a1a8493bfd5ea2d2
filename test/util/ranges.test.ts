/**
 * The numeric settings' one rule (src/util/ranges.ts): each range refused from the environment and
 * from createHandler in the same words, each way in naming its own setting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HandlerOptions } from '../../src/handler.ts';
import { checkRanges, inRange, RANGES } from '../../src/util/ranges.ts';
import { closeHandlers, makeHandler } from '../support/handler.ts';
import { environmentRefusal, optionRefusal, problemOf } from '../support/refusals.ts';

afterEach(closeHandlers);

interface Case {
  variable: string;
  option: string;
  given: (value: number) => Partial<HandlerOptions>;
  range: { min: number; max: number };
}

const CASES: Case[] = [
  { variable: 'RATE_LIMIT_QUOTA', option: 'rateLimit.quota', given: (quota) => ({ rateLimit: { quota } }), range: RANGES.quota },
  {
    variable: 'RATE_LIMIT_WINDOW_SECONDS',
    option: 'rateLimit.windowSeconds',
    given: (windowSeconds) => ({ rateLimit: { windowSeconds } }),
    range: RANGES.windowSeconds,
  },
  {
    variable: 'RATE_LIMIT_IPV6_PREFIX',
    option: 'rateLimit.ipv6PrefixBits',
    given: (ipv6PrefixBits) => ({ rateLimit: { ipv6PrefixBits } }),
    range: RANGES.ipv6PrefixBits,
  },
  {
    variable: 'MCP_MAX_BODY_BYTES',
    option: 'mcp.maxBodyBytes',
    given: (maxBodyBytes) => ({ mcp: { maxBodyBytes } }),
    range: RANGES.maxBodyBytes,
  },
  { variable: 'TRUST_PROXY_HOPS', option: 'trustProxyHops', given: (trustProxyHops) => ({ trustProxyHops }), range: RANGES.trustProxyHops },
];

describe('the numeric ranges', () => {
  describe.each(CASES)('$variable and $option', ({ variable, option, given, range }) => {
    it.each([
      ['below', range.min - 1],
      ['above', range.max + 1],
    ])('refuse a value %s the range in the same words', async (_where, value) => {
      const fromEnvironment = problemOf(environmentRefusal({ [variable]: String(value) }), variable);
      const fromOptions = problemOf(await optionRefusal(given(value)), option);
      expect(fromEnvironment).toBe(`must be a whole number from ${range.min} to ${range.max}`);
      expect(fromOptions).toBe(fromEnvironment);
    });

    it('refuse a fraction from createHandler as the environment refuses one', async () => {
      const fromEnvironment = problemOf(environmentRefusal({ [variable]: `${range.min}.5` }), variable);
      expect(problemOf(await optionRefusal(given(range.min + 0.5)), option)).toBe(fromEnvironment);
    });

    it('accept both ends', async () => {
      expect(inRange(range.min, range)).toBe(true);
      expect(inRange(range.max, range)).toBe(true);
      // The smallest quota and body would slow the handler's own set-up down: the largest ends are enough.
      await expect(makeHandler(given(range.max))).resolves.toBeTypeOf('function');
    });
  });

  it('names every value out of range at once, as the caller calls it', () => {
    expect(() => checkRanges({ quota: 0, windowSeconds: 0, port: 3 }, { quota: 'q', windowSeconds: 'w' })).toThrow(
      'Invalid configuration:\n  q=0: must be a whole number from 1 to 1000000000\n  w=0: must be a whole number from 1 to 86400',
    );
    expect(() => checkRanges({ quota: '5' }, { quota: 'q' })).toThrow('q="5": must be a whole number');
    expect(() => checkRanges({ quota: Number.NaN }, { quota: 'q' })).toThrow('q=null: must be a whole number');
  });
});
