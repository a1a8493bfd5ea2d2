/** The container's health probe, run as the image runs it (node on the module) against a real server on loopback. */
import { execFile } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/entries.ts';
import { freePort } from '../support/net.ts';
import { listen, type Listening } from '../support/node-http.ts';

let served: Listening | undefined;
afterEach(() => served?.close());

async function answering(status: number, body: string): Promise<number> {
  served = await listen((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  return served.port;
}

/** Runs the probe in its own process (the server in this one must keep answering meanwhile). */
function probe(port: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, PORT: String(port) };
    execFile(process.execPath, ['--import', 'tsx', 'src/startup/healthcheck.ts'], { cwd: ROOT, env }, (error, stdout) =>
      resolve({ code: error ? Number(error.code) : 0, out: stdout.trim() }),
    );
  });
}

describe('the health probe', () => {
  it('exits 0 on a 200, degraded included, and says what it saw', async () => {
    expect(await probe(await answering(200, '{"status":"degraded"}'))).toEqual({ code: 0, out: 'health: 200 degraded' });
  });

  it('exits 1 on any other status', async () => {
    expect(await probe(await answering(503, '{"status":"down"}'))).toEqual({ code: 1, out: 'health: 503 down' });
  });

  it('exits 1 when nothing answers on the port, naming it', async () => {
    const port = await freePort();
    const { code, out } = await probe(port);
    expect(code).toBe(1);
    expect(out).toContain(`health: no answer on port ${port}`);
  });
});
