/** Types of bundle.mjs (plain JavaScript, so `npm run build` needs no TypeScript loader). */
/** The repository's root directory. */
export declare const root: string;
export declare const OPTIONAL_PEERS: string[];
/** The packages loaded on the first MCP request, never bundled. */
export declare const LOADED_ON_USE: string[];
/** Where every bundle finds the docs page's assets module, relative to itself. */
export declare const DOCS_BODIES: string;
/** The comment every bundle and chunk begins with, which spares Bun its transpiler pass over the file. */
export declare const BUN_PRAGMA: string;
export declare function startFiles(): Record<string, string>;
export declare function bundle(outdir?: string, options?: { withDocsBodies?: boolean }): Promise<void>;
/** The shipped sample (or `sampleFile`) as `checkFacts` returns it; throws the check's StartupError. */
export declare function checkedSample(sampleFile?: string): Promise<unknown>;
