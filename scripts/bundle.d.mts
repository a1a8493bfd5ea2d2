/** Types of bundle.mjs (plain JavaScript, so `npm run build` needs no TypeScript loader). */
export declare const OPTIONAL_PEERS: string[];
/** The comment every bundle and chunk begins with, which spares Bun its transpiler pass over the file. */
export declare const BUN_PRAGMA: string;
export declare function startFiles(): Record<string, string>;
export declare function bundle(outdir?: string, options?: { withDocsBodies?: boolean }): Promise<void>;
/** The shipped sample (or `sampleFile`) as `checkFacts` returns it; throws the check's StartupError. */
export declare function checkedSample(sampleFile?: string): Promise<unknown>;
