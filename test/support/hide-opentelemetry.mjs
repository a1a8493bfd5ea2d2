/**
 * `node --import ./hide-opentelemetry.mjs ...`: resolves no `@opentelemetry/*` package, as in a
 * production install without the optional OpenTelemetry packages.
 */
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/')) {
    throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}`)}`,
);
