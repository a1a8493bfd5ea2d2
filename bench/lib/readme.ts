/** @module Writes the benchmark's figures into docs/performance.md, between its bench markers. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './proc.ts';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** Replaces what is between the markers, or appends a section holding them. */
export function updateReadme(markdown: string): void {
  const path = join(ROOT, 'docs/performance.md');
  const block = `${START}\n${markdown}\n${END}`;
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const start = text.indexOf(START);
  const end = text.indexOf(END, start);
  const next =
    start >= 0 && end > start
      ? text.slice(0, start) + block + text.slice(end + END.length)
      : `${text}${text && !text.endsWith('\n') ? '\n' : ''}${text ? '\n' : ''}## Latest figures\n\n${block}\n`;
  writeFileSync(path, next);
}
