#!/usr/bin/env node
/**
 * @module The `product-discovery` command: `serve` runs the Node entry; `check FILE` refuses or
 * accepts a facts file exactly as start-up does, so a product team can run it in its own CI.
 */
import { readFile } from 'node:fs/promises';
import { StartupError } from './startup-error.ts';
import { loadFacts } from './start.ts';

const USAGE = `Usage:
  product-discovery serve         serve the API on Node (configuration from the environment: PORT, HOST, FACTS_FILE, ...)
  product-discovery check FILE    check a facts file as start-up does; exit 0 when it would be served, 1 when not`;

const [command, ...args] = process.argv.slice(2);

if (command === 'serve' && args.length === 0) {
  await import('./entry/node.ts');
} else if (command === 'check' && args.length === 1) {
  process.exitCode = await check(args[0]!);
} else {
  console.error(USAGE);
  process.exitCode = command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

async function check(path: string): Promise<number> {
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
