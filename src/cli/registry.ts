/**
 * @module `product-discovery registry [--base URL]`: prints the MCP Registry server.json of the
 * deployment at URL (default PUBLIC_BASE_URL), for `mcp-publisher publish`, from the facts FACTS_FILE
 * names (default: the shipped sample). Exit 2 without a usable base URL, 1 for refused facts.
 */
import { readFile } from 'node:fs/promises';
import { buildServerJson, loopbackWarning } from '../discovery/registry.ts';
import { readFacts } from '../facts/read.ts';
import { settingLine, StartupError } from '../util/startup-error.ts';
import { baseUrlProblem, withoutTrailingSlash } from '../contract/base-url.ts';
import pkg from '../../package.json' with { type: 'json' };
import type { Io } from './io.ts';

export async function registry(base: string | undefined, env: Record<string, string | undefined>, io: Io): Promise<number> {
  const name = base === undefined ? 'PUBLIC_BASE_URL' : '--base';
  base ??= env.PUBLIC_BASE_URL;
  if (!base) {
    io.err(
      'product-discovery registry: give the public base URL with --base, e.g. --base https://api.example.com (or set PUBLIC_BASE_URL)',
    );
    return 2;
  }
  // The rule every way in shares (contract/base-url.ts), naming the flag or the variable the URL came from.
  const problem = baseUrlProblem(base);
  if (problem) {
    // A refused value, as a refused facts file: exit 1 (2 is for a command line that names no base).
    io.err(`product-discovery registry: ${settingLine(name, base, problem)}`);
    return 1;
  }
  const warning = loopbackWarning(base);
  if (warning) io.err(warning);
  try {
    const facts = await readFacts(env.FACTS_FILE, (path) => readFile(path, 'utf8'));
    io.out(JSON.stringify(buildServerJson(withoutTrailingSlash(base), facts, pkg.version), null, 2));
    return 0;
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    io.err(error.message);
    return 1;
  }
}
