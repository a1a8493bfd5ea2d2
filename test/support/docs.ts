/**
 * The project's Markdown (README.md and docs/**), read with marked's lexer: its code blocks, its
 * links and its headings' anchors (as GitHub makes them, with github-slugger); and how a `sh`
 * block reads as commands for test/e2e/docs-examples.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import GithubSlugger from 'github-slugger';
import { lexer, type Token, type Tokens } from 'marked';
import { ROOT } from './entries.ts';

/** README.md, then every Markdown file under docs/, as paths relative to the repository. */
export function markdownFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => (entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
  return ['README.md', ...under('docs')];
}

const tokensOf = (file: string): Token[] => lexer(readFileSync(join(ROOT, file), 'utf8'));

/** Every token in the tree, nested ones (list items, table cells, emphasis) included. */
function* walk(value: unknown): Generator<Token> {
  if (Array.isArray(value)) for (const item of value) yield* walk(item);
  else if (value && typeof value === 'object') {
    if (typeof (value as Token).type === 'string') yield value as Token;
    for (const child of Object.values(value)) if (child && typeof child === 'object') yield* walk(child);
  }
}

export interface CodeBlock {
  file: string;
  lang: string;
  text: string;
}

export const codeBlocks = (file: string): CodeBlock[] =>
  tokensOf(file)
    .filter((token): token is Tokens.Code => token.type === 'code')
    .map((token) => ({ file, lang: token.lang ?? '', text: token.text }));

/** The targets of the file's links, as written. */
export const linksOf = (file: string): string[] =>
  [...walk(tokensOf(file))].filter((token): token is Tokens.Link => token.type === 'link').map((token) => token.href);

/** The anchors of the file's headings, as GitHub names them (`## createHandler options` -> `createhandler-options`). */
export function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const text = (token: Tokens.Heading) => token.tokens.map((inline) => ('text' in inline ? inline.text : '')).join('');
  const headings = tokensOf(file).filter((token): token is Tokens.Heading => token.type === 'heading');
  return new Set(headings.map((heading) => slugger.slug(text(heading))));
}

/** A repository path for a link target relative to `file`, with its anchor; undefined for an absolute URL. */
export function resolveLink(file: string, href: string): { path: string; anchor?: string } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
  const [target = '', anchor] = href.split('#');
  const path = target === '' ? file : relative(ROOT, join(ROOT, file, '..', decodeURIComponent(target)));
  return { path, anchor };
}

/**
 * A `sh` block's commands: each line, with its `\` continuations, comment lines dropped. `npm ci`
 * (which installed the checkout the tests run in) and `npm test` (the suite itself, which CI runs)
 * are left out: the commands that remain are what a test runs.
 */
export function commandsOf(block: string): string[] {
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.replace(/^npm ci\s*&&\s*/, ''))
    .filter((line) => !/^npm (ci|test)\b/.test(line));
}

/** A command that starts a server and keeps it running: the service's own starts, the example apps, the bin's `serve`. */
const SERVING = [
  'npm start',
  'npm run start:(node|workers)',
  'npx deno task serve',
  'npx deno task serve:deploy',
  '\\S*examples/[\\w-]+\\.ts',
  '\\S*cli\\.js serve',
  'product-discovery serve',
];
export const SERVES = new RegExp(`(^|\\s)(${SERVING.join('|')})(\\s|$)`);
