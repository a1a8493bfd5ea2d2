// Cold-start probe for a serverless entry (bench/lib/coldstart.ts): imports the module named on the
// command line, asks it for GET /api/v1/product as its platform would, prints "First answer 200"
// once it has the answer, then waits to be stopped. Runs on Node and Deno. The shapes it knows:
// `export default { fetch }` (Workers, Vercel, Deno Deploy), a default function of a Request and a
// context (Netlify), and a Lambda `handler` of a function-URL event.
const [module] = typeof Deno === 'undefined' ? process.argv.slice(2) : Deno.args;
const { pathToFileURL } = await import('node:url');
const { resolve } = await import('node:path');
const loaded = await import(pathToFileURL(resolve(module)).href);
const exported = loaded.default ?? loaded;
const CLIENT = '203.0.113.7';
// One second argument serves every platform: Netlify's context.ip, Deno's info.remoteAddr.
const context = { ip: CLIENT, remoteAddr: { transport: 'tcp', hostname: CLIENT, port: 40000 } };
const request = () => new Request('http://127.0.0.1/api/v1/product', { headers: { 'x-forwarded-for': CLIENT } });

let status;
if (typeof exported.fetch === 'function' || typeof exported === 'function') {
  const fetch = typeof exported.fetch === 'function' ? exported.fetch.bind(exported) : exported;
  const response = await fetch(request(), context);
  await response.arrayBuffer();
  status = response.status;
} else if (typeof loaded.handler === 'function') {
  const event = {
    version: '2.0',
    rawPath: '/api/v1/product',
    rawQueryString: '',
    headers: { host: '127.0.0.1' },
    requestContext: { http: { method: 'GET', path: '/api/v1/product', sourceIp: CLIENT }, domainName: '127.0.0.1' },
    isBase64Encoded: false,
  };
  status = (await loaded.handler(event, {})).statusCode;
} else {
  console.error(`${module}: nothing to ask (no default fetch, default function or Lambda handler)`);
  process.exit(2);
}
console.log(`First answer ${status}`);
setInterval(() => {}, 60_000);
