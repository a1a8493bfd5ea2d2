/** start(): configuration, listening, reload and a clean stop, through a real Node server behind the Runtime port. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { start, type Runtime } from '../../src/startup/start.ts';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };

type Signal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** A Runtime on node:http (through @hono/node-server) whose signals and exit the test drives and reads. */
function nodeRuntime(env: Record<string, string>) {
  const listeners = new Map<Signal, () => void>();
  const exits: number[] = [];
  const arrived = { count: 0 };
  let exited: () => void;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const runtime: Runtime = {
    env,
    readTextFile: (path) => readFile(path, 'utf8'),
    listen: ({ host, port }, fetch) =>
      new Promise((resolve, reject) => {
        const server = serve(
          { hostname: host, port, fetch: (request) => (arrived.count++, fetch(request, { clientAddress: '192.0.2.1' })) },
          (info: AddressInfo) =>
            resolve({
              url: `http://${info.address}:${info.port}`,
              // As the Node entry does: close() waits for kept-alive connections, so sweep them as each falls idle.
              stop: () =>
                new Promise((closed) => {
                  const http = server as import('node:http').Server;
                  const sweep = setInterval(() => http.closeIdleConnections(), 20);
                  http.close(() => (clearInterval(sweep), closed()));
                }),
            }),
        );
        server.once('error', reject);
      }),
    onSignal: (signal, listener) => void listeners.set(signal, listener),
    exit: ((code: number) => {
      exits.push(code);
      exited();
    }) as Runtime['exit'],
  };
  return { runtime, exits, exit, arrived, signal: (signal: Signal) => listeners.get(signal)!() };
}

function output() {
  const out = vi.spyOn(console, 'log').mockImplementation(() => {});
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  const lines = (spy: typeof out) => spy.mock.calls.map((call) => String(call[0]));
  return {
    out: () => lines(out),
    err: () => lines(err),
    json: () =>
      lines(out)
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line)),
  };
}

const busyPort = () =>
  new Promise<{ port: number; close: () => void }>((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as AddressInfo).port, close: () => server.close() }),
    );
  });

afterEach(() => vi.restoreAllMocks());

describe('start', () => {
  it('stops at a bad variable with one message naming it, exit code 1', async () => {
    const { err } = output();
    const { runtime, exits } = nodeRuntime({ PORT: 'eighty' });
    await start(runtime);
    expect(exits).toEqual([1]);
    expect(err().join('\n')).toMatch(/PORT="eighty": must be a whole number/);
  });

  it('names a busy port, exit code 1', async () => {
    const { err } = output();
    const busy = await busyPort();
    try {
      const { runtime, exits } = nodeRuntime({ PORT: String(busy.port) });
      await start(runtime);
      expect(exits).toEqual([1]);
      expect(err().join('\n')).toContain(`PORT="${busy.port}": port ${busy.port} is already in use`);
    } finally {
      busy.close();
    }
  });

  it('serves on the printed URL, reloads the facts on SIGHUP, and drains before it stops on SIGTERM', async () => {
    const { out, json } = output();
    const dir = mkdtempSync(join(tmpdir(), 'start-'));
    const factsFile = join(dir, 'facts.json');
    writeFileSync(factsFile, JSON.stringify(sample));
    const { runtime, exits, exit, arrived, signal } = nodeRuntime({ PORT: '0', FACTS_FILE: factsFile });
    await start(runtime);
    const url = /Serving .* on (http:\/\/\S+)/.exec(out().join('\n'))![1]!;
    expect((await fetch(`${url}/api/v1/product`)).status).toBe(200);

    writeFileSync(factsFile, JSON.stringify({ ...sample, product: { ...sample.product, name: 'Renamed Galleries' } }));
    signal('SIGHUP');
    await vi.waitFor(() => expect(json().some((line) => line.event === 'facts_reloaded')).toBe(true));
    expect((await (await fetch(`${url}/api/v1/product`)).json()).product.name).toBe('Renamed Galleries');

    // A request still being sent when the signal comes is answered before the server stops.
    let finishSending!: () => void;
    const sending = new Promise<void>((resolve) => (finishSending = resolve));
    const body = new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,'));
        await sending;
        controller.enqueue(new TextEncoder().encode('"method":"ping"}'));
        controller.close();
      },
    });
    const slow = fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const before = arrived.count;
    await vi.waitFor(() => expect(arrived.count).toBe(before + 1));
    signal('SIGTERM');
    finishSending();
    expect((await slow).status).toBe(200);
    await exit;
    expect(exits).toEqual([0]);
    expect(json().find((line) => line.event === 'shutdown')).toMatchObject({ level: 'info', signal: 'SIGTERM', drainedRequests: 1 });
    await expect(fetch(`${url}/api/v1`)).rejects.toThrow();
  });
});
