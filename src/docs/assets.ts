/**
 * @module The docs page's assets: Swagger UI's bundle and stylesheet and the page's own script and
 * stylesheet, under /docs/ with content-hashed names (scripts/docs-assets.ts writes them at build
 * time). The names are known at start-up; the bytes (about 1.9 MB) are imported on first use, so a
 * process that never serves an asset never loads them.
 */
import { DOCS_PATH } from '../route.ts';
import { DOCS_ASSET_FILES, RENDERER } from './generated/manifest.ts';

export { DOCS_PATH, RENDERER };

/** A fingerprinted name changes with its content: the file at one URL never changes. */
export const DOCS_ASSET_CACHE = 'public, max-age=31536000, immutable';

export interface DocsAsset {
  /** The path it is served at, e.g. /docs/swagger-ui-bundle.e6a898692f2d.js */
  path: string;
  /** The file name, fingerprinted. */
  file: string;
  contentType: string;
  /** SHA-256 of the body, hex. */
  sha256: string;
}

export const DOCS_ASSETS: readonly DocsAsset[] = DOCS_ASSET_FILES.map(({ file, contentType, sha256 }) => ({
  path: `${DOCS_PATH}/${file}`,
  file,
  contentType,
  sha256,
}));

/** What the page links: its stylesheets and its scripts, in load order, as paths relative to /docs. */
export function pageAssets(assets: readonly DocsAsset[] = DOCS_ASSETS): { styles: string[]; scripts: string[] } {
  const relative = (asset: DocsAsset) => asset.path.slice(1);
  return {
    styles: assets.filter((asset) => asset.contentType.startsWith('text/css')).map(relative),
    scripts: assets.filter((asset) => asset.contentType.startsWith('text/javascript')).map(relative),
  };
}

let bodies: Promise<Map<string, Uint8Array<ArrayBuffer>>> | undefined;

/** The body of every asset by path, encoded once on first call. */
export function loadDocsAssetBodies(): Promise<Map<string, Uint8Array<ArrayBuffer>>> {
  bodies ??= import('./generated/bodies.ts').then(({ DOCS_ASSET_TEXT }) => {
    const encoder = new TextEncoder();
    return new Map(DOCS_ASSETS.map((asset) => [asset.path, encoder.encode(DOCS_ASSET_TEXT[asset.file]!)]));
  });
  return bodies;
}
