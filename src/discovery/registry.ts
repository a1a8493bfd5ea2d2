/**
 * @module The MCP Registry's `server.json` for this deployment: what `mcp-publisher publish` sends to
 * registry.modelcontextprotocol.io. One remote, streamable-http at {base}/mcp; the name, title and
 * description of the server card, whose limits are the registry's too.
 */
import { MCP_PATH } from '../route.ts';
import type { Product } from '../facts/schema.ts';
import { fitText, iconsMember, serverCardName, type Icon } from './server-card.ts';
import { baseUrlProblem, withoutTrailingSlash } from '../contract/base-url.ts';
import { settingLine } from '../util/startup-error.ts';

/** The registry's current server.json schema (vendored in test/fixtures/mcp-registry-server.schema.json). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

export interface ServerJson {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  websiteUrl?: string;
  icons?: Icon[];
  remotes: { type: 'streamable-http'; url: string }[];
}

export function buildServerJson(base: string, facts: Product, version: string): ServerJson {
  const website = facts.resources.find((resource) => resource.kind === 'website');
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: serverCardName(base),
    title: fitText(facts.product.name),
    description: fitText(facts.product.summary),
    version,
    ...(website ? { websiteUrl: website.url } : {}),
    ...iconsMember(facts),
    remotes: [{ type: 'streamable-http', url: `${base}${MCP_PATH}` }],
  };
}

/**
 * A warning when `base` names this machine (localhost, 127.0.0.0/8, ::1, or the unspecified address),
 * which no registry client can reach: the server would be listed under a `localhost/...` name.
 */
export function loopbackWarning(base: string): string | undefined {
  const host = new URL(base).hostname.toLowerCase();
  const loopback =
    host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || ['[::1]', '0.0.0.0', '[::]'].includes(host);
  if (!loopback) return undefined;
  return (
    `product-discovery registry: warning: ${base} names this machine, which registry clients cannot reach; ` +
    'give the public URL clients use, e.g. --base https://api.example.com'
  );
}

/**
 * `product-discovery registry [--base URL]`: prints the server.json of the deployment at URL (default
 * PUBLIC_BASE_URL), from the facts FACTS_FILE names (default: the shipped sample). Returns the exit code.
 */
export async function registryCommand(
  base: string | undefined,
  env: Record<string, string | undefined>,
  io: { out(text: string): void; err(text: string): void },
): Promise<number> {
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
    io.err(`product-discovery registry: ${settingLine(name, base, problem)}`);
    return 2;
  }
  const warning = loopbackWarning(base);
  if (warning) io.err(warning);
  const [{ StartupError }, { loadFacts }, { checkFacts }, sample, pkg] = await Promise.all([
    import('../util/startup-error.ts'),
    import('../startup/start.ts'),
    import('../facts/check.ts'),
    import('../facts/sample-facts.json', { with: { type: 'json' } }),
    import('../../package.json', { with: { type: 'json' } }),
  ]);
  try {
    const { readFile } = await import('node:fs/promises');
    const facts = env.FACTS_FILE
      ? await loadFacts(env.FACTS_FILE, (file) => readFile(file, 'utf8'))
      : checkFacts('(the shipped sample)', sample.default);
    io.out(JSON.stringify(buildServerJson(withoutTrailingSlash(base), facts, pkg.default.version), null, 2));
    return 0;
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    io.err(error.message);
    return 1;
  }
}
