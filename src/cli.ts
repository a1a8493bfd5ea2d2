#!/usr/bin/env node
/**
 * @module The `product-discovery` command: `serve` runs the Node entry; `check FILE` refuses or
 * accepts a facts file exactly as start-up does, so a product team can run it in its own CI;
 * `verify URL` checks a running deployment against the contract; `registry` prints its MCP Registry
 * server.json. Each loads only what it needs.
 */
import { readFile } from 'node:fs/promises';
import pkg from '../package.json' with { type: 'json' };

const USAGE = `product-discovery ${pkg.version}

Usage:
  product-discovery serve              serve the API on Node (configuration from the environment: PORT, HOST, FACTS_FILE, ...)
  product-discovery check FILE         check a facts file as start-up does; exit 0 when it would be served, 1 when not
  product-discovery verify URL [--json]
                                       check a running deployment against the contract (at most 60 requests, reads only);
                                       exit 0 when every check passes, 1 when one fails
  product-discovery registry [--base URL]
                                       print the MCP Registry server.json of the deployment at URL (default PUBLIC_BASE_URL),
                                       for mcp-publisher publish
  product-discovery --version, -v      print the version
  product-discovery --help, -h         print this help`;

const [command, ...args] = process.argv.slice(2);

if (command === 'serve' && args.length === 0) {
  await import('./entry/node.ts');
} else if (command === 'check' && args.length === 1) {
  process.exitCode = await check(args[0]!);
} else if (command === 'verify' && (args.length === 1 || (args.length === 2 && args.includes('--json')))) {
  process.exitCode = await verify(args.find((arg) => arg !== '--json')!, args.includes('--json'));
} else if (command === 'registry') {
  process.exitCode = await (await import('./discovery/registry.ts')).registryCommand(args, process.env);
} else if (command === '--version' || command === '-v') {
  console.log(pkg.version);
} else if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
  console.log(USAGE);
} else {
  console.error(USAGE);
  process.exitCode = 2;
}

async function check(path: string): Promise<number> {
  const [{ StartupError }, { loadFacts }] = await Promise.all([import('./startup-error.ts'), import('./start.ts')]);
  try {
    const facts = await loadFacts(path, (file) => readFile(file, 'utf8'));
    console.log(`${path} would be served: ${facts.product.name}, ${facts.resources.length} resources, ${facts.startOptions.length} start options.`);
    return 0;
  } catch (error) {
    if (!(error instanceof StartupError)) throw error;
    console.error(error.message);
    return 1;
  }
}

async function verify(url: string, json: boolean): Promise<number> {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    console.error(`product-discovery verify: ${JSON.stringify(url)} is not an http or https URL, e.g. https://api.example.com`);
    return 2;
  }
  const { formatReport, reportJson, verify: run } = await import('./verify/index.ts');
  const report = await run(url);
  // Colour only for a person at a terminal, and never when NO_COLOR is set (no-color.org).
  console.log(json ? reportJson(report) : formatReport(report, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }));
  return report.ok ? 0 : 1;
}
