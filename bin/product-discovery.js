#!/usr/bin/env node
// The `product-discovery` command. The program is the build in dist/; this file is committed with
// its execute bit, so npx and the installed link keep working after every rebuild.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('product-discovery: dist/cli.js is missing (this checkout is not built): run `npm ci` or `npm run build` first.');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
