/** The `cloudflare:workers` module as workerd provides it, typed from @cloudflare/workers-types. */
declare module 'cloudflare:workers' {
  // biome-ignore lint/correctness/noUnusedImports: `export import` below reads it, which the linter does not see.
  import type { CloudflareWorkersModule } from '@cloudflare/workers-types/latest/index.ts';
  export import DurableObject = CloudflareWorkersModule.DurableObject;
  /** The Worker's bindings, readable at module start-up. */
  export const env: Record<string, unknown>;
}
