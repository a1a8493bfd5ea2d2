/**
 * @module Packages a production install leaves out (optional peer dependencies): the Redis client,
 * and what only `verify` uses. They are imported when first needed; when one is not installed, the
 * error names every package the feature needs and the command that installs them.
 */
import { StartupError } from './startup-error.ts';

/** Node and Deno set this code; Bun's resolver says "Cannot find package" or "Cannot find module". */
const isNotFound = (error: unknown): boolean => {
  const { code, message = '' } = error as { code?: string; message?: string };
  return (
    code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /cannot find (package|module)|could not (find|resolve)/i.test(message)
  );
};

/** Runs `load` (a dynamic import); a missing package becomes a StartupError naming `packages` and what needs them. */
export async function importOptional<T>(load: () => Promise<T>, packages: readonly string[], neededBy: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isNotFound(error) || !packages.some((name) => String((error as Error).message).includes(name))) throw error;
    throw new StartupError(missingPackages(packages, neededBy));
  }
}

export function missingPackages(packages: readonly string[], neededBy: string): string {
  const list = packages.length === 1 ? packages[0] : `${packages.slice(0, -1).join(', ')} and ${packages.at(-1)}`;
  return `${neededBy} needs ${list}, left out of a production install (optional peers):\n` + `  npm install ${packages.join(' ')}`;
}
