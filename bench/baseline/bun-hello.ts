/** @module Cold-start reference on Bun: the smallest Bun.serve hello world. */
const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0), fetch: () => new Response('hello') });
console.log(`Baseline listening on ${server.url.origin}`);
