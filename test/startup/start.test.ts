/** start() with the Node entry's Runtime: configuration, listening, reload and a clean stop on a real node:http server. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeRuntime as entryRuntime } from '../../src/startup/node-runtime.ts';
import { start, type Fetch } from '../../src/startup/start.ts';
import sample from '../../src/facts/sample-facts.json' with { type: 'json' };

type Signal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The Node entry's own Runtime, with the signals and the exit driven and read by the test, and the requests that arrive counted. */
function nodeRuntime(env: Record<string, string>) {
  const listeners = new Map<Signal, () => void>();
  const exits: number[] = [];
  const arrived = { count: 0 };
  let exited: () => void;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const runtime = entryRuntime({
    env,
    on: (signal: Signal, listener: () => void) => listeners.set(signal, listener),
    exit: ((code: number) => {
      exits.push(code);
      exited();
    }) as (code: number) => never,
  });
  const listen = runtime.listen;
  runtime.listen = (address, fetch) => {
    const counted = ((request, info) => (arrived.count++, fetch(request, info))) as Fetch;
    counted.answer = (request, info) => (arrived.count++, fetch.answer(request, info));
    return listen(address, counted);
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

  it('stops at an impossible date in the facts with one message naming the field, exit code 1', async () => {
    const { err } = output();
    const dir = mkdtempSync(join(tmpdir(), 'start-'));
    const factsFile = join(dir, 'facts.json');
    writeFileSync(factsFile, JSON.stringify({ ...sample, product: { ...sample.product, reviewedOn: '2026-13-01' } }));
    const { runtime, exits } = nodeRuntime({ PORT: '0', FACTS_FILE: factsFile });
    await start(runtime);
    expect(exits).toEqual([1]);
    expect(err()).toEqual([
      `Facts file ${factsFile} was refused:\n` +
        '  product.reviewedOn: "2026-13-01" is not a date that exists (there is no month 13); give a real calendar date (YYYY-MM-DD)',
    ]);
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
    const { out, err, json } = output();
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

    // An impossible date on a reload: the log names the field, the served facts stay.
    writeFileSync(factsFile, JSON.stringify({ ...sample, product: { ...sample.product, reviewedOn: '2026-01-32' } }));
    signal('SIGHUP');
    const refused = () => err().find((line) => line.includes('"facts_refused"'));
    await vi.waitFor(() => expect(refused()).toBeDefined());
    expect(JSON.parse(refused()!).reason).toContain('product.reviewedOn: "2026-01-32" is not a date that exists (there is no day 32)');
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
