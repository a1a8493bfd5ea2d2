// Cold-start probe for a serverless entry (bench/lib/coldstart.ts): imports the module named on the
// command line, asks its fetch-style export for GET /api/v1/product as the platform would, prints
// "First answer 200" once it has the answer, then waits to be stopped. Runs on Node and Deno.
const [module] = typeof Deno === 'undefined' ? process.argv.slice(2) : Deno.args;
const { pathToFileURL } = await import('node:url');
const { resolve } = await import('node:path');
const loaded = await import(pathToFileURL(resolve(module)).href);
const exported = loaded.default ?? loaded;
// `export default { fetch }` (Workers, Vercel, Deno Deploy) or a function of a Request (Netlify).
const fetch = typeof exported.fetch === 'function' ? exported.fetch.bind(exported) : typeof exported === 'function' ? exported : undefined;
if (!fetch) {
  console.error(`${module}: no fetch-style export (default.fetch or a default function of a Request) to ask`);
  process.exit(2);
}
const response = await fetch(new Request('http://127.0.0.1/api/v1/product', { headers: { 'x-forwarded-for': '203.0.113.7' } }), {});
await response.arrayBuffer();
console.log(`First answer ${response.status}`);
setInterval(() => {}, 60_000);
