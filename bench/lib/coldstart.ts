/** @module Cold start: spawn to the first 200, for the service, a hello world and the first MCP answer. */
import { config, log, QUOTA } from './config.ts';
import { exchange, type RequestSpec } from './http.ts';
import { sleep, start } from './proc.ts';
import { BASELINE_READY, command, ENTRY, LABEL, SERVICE_READY, type RuntimeName } from './runtimes.ts';

export interface ColdStart {
  runtime: RuntimeName;
  service: number[];
  hello: number[];
  /** Spawn to the first 200 of an MCP tools/call (the SDK loads on the first MCP request). */
  firstMcp: number[];
  error?: string;
}

const FIRST_MCP_CALL: RequestSpec = {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product_overview', arguments: {} } }),
};

async function spawnToFirst200(cmd: [string, string[]], ready: RegExp, path: string, spec: RequestSpec = {}): Promise<number> {
  const t0 = performance.now();
  const server = await start(...cmd, { cpu: config.serverCpu, env: { PORT: '0', RATE_LIMIT_QUOTA: QUOTA }, ready });
  try {
    for (;;) {
      try {
        if ((await exchange(server.url + path, spec)).status === 200) return performance.now() - t0;
      } catch {
        /* not answering yet */
      }
      await sleep(1);
    }
  } finally {
    await server.stop();
  }
}

export async function coldStart(runtime: RuntimeName): Promise<ColdStart> {
  const result: ColdStart = { runtime, service: [], hello: [], firstMcp: [] };
  const service = () => spawnToFirst200(command(runtime, ENTRY[runtime]), SERVICE_READY, '/api/v1/product');
  const firstMcp = () => spawnToFirst200(command(runtime, ENTRY[runtime]), SERVICE_READY, '/mcp', FIRST_MCP_CALL);
  // Node runs the compiled service, so its reference is the same hello world as plain JavaScript.
  const helloFile = runtime === 'node' ? 'bench/baseline/node-hello-plain.mjs' : `bench/baseline/${runtime}-hello.ts`;
  const hello = () => spawnToFirst200(command(runtime, helloFile), BASELINE_READY, '/');
  try {
    // One discarded start of each fills the file cache.
    await service();
    await hello();
    for (let i = 0; i < config.coldRuns; i++) {
      result.service.push(await service());
      result.hello.push(await hello());
      result.firstMcp.push(await firstMcp());
    }
  } catch (error) {
    result.error = (error as Error).message;
    log(`${LABEL[runtime]} cold start: ${result.error}`);
  }
  return result;
}
