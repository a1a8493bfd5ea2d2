/**
 * The docs assets as the build step copies them: the renderer's files byte for byte from the pinned
 * swagger-ui-dist (less the stylesheet's source-map reference), each named by a hash of its bytes,
 * with its licence beside them; loaded once, on first use.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_ASSET_CACHE, DOCS_ASSETS, loadDocsAssetBodies, pageAssets, RENDERER } from '../../src/docs/assets.ts';
import { writeDocsAssets } from '../../scripts/docs-assets.ts';
import { ROOT } from '../support/entries.ts';

const dist = (file: string) => readFile(join(ROOT, 'node_modules/swagger-ui-dist', file), 'utf8');

describe('the docs assets', () => {
  it('are the pinned renderer', async () => {
    const pinned = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).devDependencies['swagger-ui-dist'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(RENDERER).toEqual({ name: 'swagger-ui-dist', version: pinned, license: 'Apache-2.0' });
  });

  it('are served under /docs/ by names that carry a hash of their bytes', async () => {
    const bodies = await loadDocsAssetBodies();
    expect(DOCS_ASSETS.map((asset) => asset.path.replace(/\.[0-9a-f]{12}\./, '.'))).toEqual([
      '/docs/swagger-ui.css',
      '/docs/docs.css',
      '/docs/swagger-ui-bundle.js',
      '/docs/docs.js',
    ]);
    for (const asset of DOCS_ASSETS) {
      const sha256 = createHash('sha256').update(bodies.get(asset.path)!).digest('hex');
      expect(asset.sha256).toBe(sha256);
      expect(asset.path).toBe(`/docs/${asset.file}`);
      expect(asset.file).toContain(`.${sha256.slice(0, 12)}.`);
      expect(asset.contentType).toBe(asset.file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
    }
    expect(DOCS_ASSET_CACHE).toBe('public, max-age=31536000, immutable');
  });

  it('hold the renderer’s files as published', async () => {
    const bodies = await loadDocsAssetBodies();
    const text = (name: string) =>
      new TextDecoder().decode(bodies.get(DOCS_ASSETS.find((asset) => asset.file.startsWith(`${name}.`))!.path));
    expect(text('swagger-ui-bundle')).toBe(await dist('swagger-ui-bundle.js'));
    const css = await dist('swagger-ui.css');
    expect(css).toMatch(/sourceMappingURL/);
    expect(text('swagger-ui')).toBe(css.replace(/\n?\/\*# sourceMappingURL=[^*]*\*\/\s*$/, '\n'));
    expect(text('swagger-ui')).not.toMatch(/sourceMappingURL/);
  });

  it('ship with the renderer’s licence and notices (as the build step writes them)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docs-assets-'));
    try {
      await writeDocsAssets(dir);
      for (const file of ['LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt']) {
        expect(await readFile(join(dir, 'licences/swagger-ui', file), 'utf8')).toBe(await dist(file));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('are loaded once', async () => {
    expect(await loadDocsAssetBodies()).toBe(await loadDocsAssetBodies());
  });

  it('split into what the page links', () => {
    expect(pageAssets()).toEqual({
      styles: DOCS_ASSETS.filter((asset) => asset.file.endsWith('.css')).map((asset) => asset.path.slice(1)),
      scripts: DOCS_ASSETS.filter((asset) => asset.file.endsWith('.js')).map((asset) => asset.path.slice(1)),
    });
  });
});
