/** @module Small statistics and number formatting for the report. */
export function median(values: number[]): number {
  const xs = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
}

export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
export const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const ms = (n: number) =>
  !Number.isFinite(n) ? 'n/a' : n < 10 ? `${n.toFixed(2)} ms` : n < 100 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`;
export const pct = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? 'n/a' : `${Math.round(n * 100)}%`);
