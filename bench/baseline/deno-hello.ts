/** @module Cold-start reference on Deno: the smallest Deno.serve hello world. */
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ port }) => console.log(`Baseline listening on http://127.0.0.1:${port}`),
  },
  () => new Response('hello'),
);
