/**
 * @module The numeric settings' ranges, one rule for every way in: the environment (RATE_LIMIT_QUOTA,
 * ...), `createHandler`'s options (`rateLimit.quota`, ...), the serverless and Workers entries. A value
 * is a whole number within its range; each caller passes the name its user wrote.
 */
import { invalidConfiguration, settingLine } from './startup-error.ts';

export interface Range {
  min: number;
  max: number;
}

/** The ranges of the numbers an operator or an embedding app sets. */
export const RANGES = {
  /** Requests per window per client. */
  quota: { min: 1, max: 1_000_000_000 },
  /** A window's length, up to a day. */
  windowSeconds: { min: 1, max: 86_400 },
  /** The leading bits an IPv6 client is counted by: /32 (a whole allocation) to /128 (one address). */
  ipv6PrefixBits: { min: 32, max: 128 },
  /** The largest MCP request body: 1 KiB to 16 MiB. */
  maxBodyBytes: { min: 1024, max: 16 * 1024 * 1024 },
  /** Proxies in front whose X-Forwarded-For entries are believed. */
  trustProxyHops: { min: 0, max: 32 },
  /** A TCP port (0: any free one). */
  port: { min: 0, max: 65_535 },
} satisfies Record<string, Range>;

export type RangeName = keyof typeof RANGES;

/** The words every way in refuses a number out of `range` with. */
export const rangeProblem = ({ min, max }: Range): string => `must be a whole number from ${min} to ${max}`;

export const inRange = (value: unknown, { min, max }: Range): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** What `createHandler`'s options call the numbers (the environment's names are config.ts's). */
const OPTION_NAMES: Partial<Record<RangeName, string>> = {
  quota: 'rateLimit.quota',
  windowSeconds: 'rateLimit.windowSeconds',
  ipv6PrefixBits: 'rateLimit.ipv6PrefixBits',
  maxBodyBytes: 'mcp.maxBodyBytes',
  trustProxyHops: 'trustProxyHops',
};

/**
 * Each of `values` that is set, checked against its range in RANGES; a StartupError naming every one
 * out of range, as `names` call them.
 */
export function checkRanges(values: Partial<Record<RangeName, unknown>>, names = OPTION_NAMES): void {
  const lines = (Object.keys(names) as RangeName[])
    .filter((key) => values[key] !== undefined && !inRange(values[key], RANGES[key]))
    .map((key) => settingLine(names[key]!, values[key], rangeProblem(RANGES[key])));
  if (lines.length > 0) throw invalidConfiguration(...lines);
}
