/** @module A comma-separated setting (MCP_ALLOWED_ORIGINS, the Redis node lists) read as its items. */
import * as v from 'valibot';

/** The items of a comma-separated text, each trimmed, empty ones dropped. */
export const commaItems = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The valibot step that turns a comma-separated setting into its items. */
export const commaList = () => v.transform(commaItems);
