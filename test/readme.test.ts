/**
 * The README and the docs/ chapters as a reader meets them: a front page of about 150 lines that
 * links every chapter, links that lead somewhere, and shell blocks fenced so that the examples test
 * (test/e2e/docs-examples.test.ts) runs every one that can run.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, codeBlocks, commandsOf, linksOf, markdownFiles, resolveLink, SERVES } from './support/docs.ts';
import { ROOT } from './support/entries.ts';

const files = markdownFiles();

describe('the README and docs/', () => {
  it('are a front page of about 150 lines and one chapter per topic', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(170);
    const topics = ['getting-started', 'facts', 'running', 'deploying', 'configuration', 'embedding', 'operating', 'mcp', 'contract'];
    for (const chapter of topics) {
      expect(files, chapter).toContain(`docs/${chapter}.md`);
    }
  });

  it('open with the two commands, whose install and test CI runs as written (the examples test leaves them out)', () => {
    const [opening] = codeBlocks('README.md');
    expect(opening?.lang).toBe('sh');
    expect(opening!.text).toMatch(/^npm ci && npm start\s.*\nnpm ci && npm test\s/);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test\b/m);
  });

  it('link every chapter from the one menu, docs/README.md, which the README links to', () => {
    const linked = (file: string) => new Set(linksOf(file).map((href) => resolveLink(file, href)?.path));
    const chapters = files.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md');
    const fromMenu = linked('docs/README.md');
    expect(chapters.filter((chapter) => !fromMenu.has(chapter))).toEqual([]);
    expect(linked('README.md').has('docs/README.md')).toBe(true);
  });

  it('give every platform of the deploying chapter a page of its own', () => {
    const pages = files.filter((file) => file.startsWith('docs/deploy/'));
    expect(pages).toEqual(
      expect.arrayContaining(
        ['workers', 'vercel', 'netlify', 'lambda', 'deno-deploy', 'containers'].map((name) => `docs/deploy/${name}.md`),
      ),
    );
  });

  it.each(files)('%s: every relative link points at a file, and every anchor at a heading of it', (file) => {
    const broken = [];
    for (const href of linksOf(file)) {
      const target = resolveLink(file, href);
      if (!target) continue;
      const path = join(ROOT, target.path);
      if (target.path.startsWith('..') || !existsSync(path)) broken.push(`${href}: no such file`);
      else if (!target.anchor) continue;
      else if (statSync(path).isDirectory() || !target.path.endsWith('.md')) broken.push(`${href}: an anchor into a non-Markdown file`);
      else if (!anchorsOf(target.path).has(target.anchor)) broken.push(`${href}: no heading #${target.anchor} in ${target.path}`);
    }
    expect(broken).toEqual([]);
  });

  it.each(files)('%s: shell is fenced as sh (run by the examples test) or as text or console (shown only)', (file) => {
    const fences = codeBlocks(file).map((block) => block.lang);
    // Shell is sh, text or console; the other languages are files shown as written (configuration, code).
    expect(fences.filter((lang) => !['sh', 'text', 'console', 'ts', 'json', 'jsonc', 'yaml', 'toml'].includes(lang))).toEqual([]);
    for (const block of codeBlocks(file).filter((block) => block.lang === 'sh')) {
      expect(block.text.includes('\t'), block.text).toBe(false);
      // Nothing a test cannot do here: no account, no second terminal, no registry, no host but this one.
      expect(block.text, block.text).not.toMatch(/wrangler (login|deploy)|npm (publish|install)|terminal \d/);
      expect(block.text, block.text).not.toMatch(/(curl|verify)\s.*https?:\/\/(?!127\.0\.0\.1|localhost)/);
    }
  });
});

describe('commandsOf, how the examples test reads a sh block', () => {
  it('joins continued lines, drops comments, and leaves out the install and the suite', () => {
    const lines = ['# a comment', 'npm ci && npm start   # serve', 'npm ci && npm test', 'curl -s localhost:8787/mcp \\', "  -d '{}'", ''];
    const block = lines.join('\n');
    expect(commandsOf(block)).toEqual(['npm start   # serve', "curl -s localhost:8787/mcp    -d '{}'"]);
  });

  it('tells a command that starts a server from one that talks to it', () => {
    const serving = ['npm start', 'PORT=9000 npm start', 'npm run start:node  # builds', 'node --import tsx examples/hono-app.ts'];
    serving.push('node dist/cli.js serve');
    for (const command of serving) expect(SERVES.test(command), command).toBe(true);
    for (const command of ['curl -s localhost:8787/api/v1', 'npm run start:nodes', 'node dist/cli.js check facts.json', 'npm run build']) {
      expect(SERVES.test(command), command).toBe(false);
    }
  });
});

describe('resolveLink', () => {
  it('resolves a target against the linking file, keeps the anchor, and ignores absolute URLs', () => {
    expect(resolveLink('docs/running.md', '../src/cli.ts')).toEqual({ path: 'src/cli.ts', anchor: undefined });
    expect(resolveLink('docs/deploy/vercel.md', '../verify.md#from-another-projects-tests')).toEqual({
      path: 'docs/verify.md',
      anchor: 'from-another-projects-tests',
    });
    expect(resolveLink('README.md', '#try-it')).toEqual({ path: 'README.md', anchor: 'try-it' });
    expect(resolveLink('README.md', 'https://llmstxt.org')).toBeUndefined();
  });
});
