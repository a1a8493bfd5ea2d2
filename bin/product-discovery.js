#!/usr/bin/env node
// The `product-discovery` command. The program is the build's start-up bundle, dist/start/cli.js; this
// file is committed with its execute bit, so npx and the installed link keep working after every rebuild.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/start/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('product-discovery: dist/start/cli.js is missing (this checkout is not built): run `npm ci` or `npm run build` first.');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
