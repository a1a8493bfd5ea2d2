/**
 * `node --import ./trace-imports.mjs ...`: appends the URL of every module the process resolves to
 * the file named by TRACE_IMPORTS, so a test can tell what a command loads.
 */
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.TRACE_IMPORTS, resolved.url + '\\n');
  return resolved;
}`)}`,
);
