// Cold-start reference on Node without tsx: the same hello world as node-hello.ts, plain JavaScript.
import { createServer } from 'node:http';

const server = createServer((_req, res) => res.end('hello'));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`Baseline listening on http://127.0.0.1:${server.address().port}`);
});
