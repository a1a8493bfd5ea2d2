/** @module The HTTP rows of the benchmark: what each request is, and what it is measured against. */
import { CONTRACT_FLOOR_PATH, FLOOR_PATH, NOT_FOUND_CONTRACT_FLOOR_PATH, NOT_FOUND_FLOOR_PATH } from '../baseline/bodies.ts';
import { onlyScenarios } from './config.ts';
import type { RequestSpec } from './http.ts';
import type { RuntimeName } from './runtimes.ts';
import type { StoreKind } from './stores.ts';

/** The service instances other than the first (see `Scenario.instance`). */
export type ServiceInstance = StoreKind | 'mcp' | 'proxied';
/** How each instance that counts in memory is started. */
export const INSTANCE_ENV = { mcp: {}, proxied: { TRUST_PROXY_HOPS: '1' } } satisfies Record<string, Record<string, string>>;
export const countsInMemory = (kind: ServiceInstance): kind is keyof typeof INSTANCE_ENV => kind in INSTANCE_ENV;

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const MCP_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_product_overview', arguments: {} } };
const MODERN = '2026-07-28';

export interface Scenario {
  id: string;
  label: string;
  request: RequestSpec & { path: string };
  /** `baseline`: the bare server with the same request; otherwise the id of a service scenario. */
  reference: 'baseline' | string;
  /** The baseline's path when it differs from the service's. */
  baselinePath?: string;
  /** What the reference column says: after the bare server's name, or in place of the reference row's label. */
  referenceLabel?: string;
  /** The ratio to reach, per runtime. */
  target?: Partial<Record<RuntimeName, number>>;
  /** The status the service answers, when not a 2xx (then not counted as an error). */
  status?: number;
  /**
   * Measured on another service instance: one counting in a local redis-server or a Redis Cluster of
   * three masters; `mcp`, the one that answers the MCP rows (so the REST rows' instance, like the
   * bare server, sees GETs alone); or `proxied`, one that trusts one proxy (TRUST_PROXY_HOPS=1).
   */
  instance?: ServiceInstance;
}

const PRODUCT: Scenario = { id: 'product', label: 'GET /api/v1/product', request: { path: '/api/v1/product' }, reference: 'baseline' };
// Issue 38: against the bare server sending the same body with only its Content-Type.
const NOT_FOUND: Scenario = {
  id: 'notFound',
  label: 'GET /nope (404)',
  request: { path: '/nope' },
  status: 404,
  reference: 'baseline',
  target: { bun: 0.7, deno: 0.7, node: 0.7 },
};

/** The same request against the bare server sending the service's own headers for it: what the header contract alone costs. */
const againstItsHeaders = (row: Scenario, baselinePath: string, headers: string): Scenario =>
  againstFloor(row, `${row.id}Floor`, baselinePath, `sending the service's ${headers}, built the fastest way for the runtime`);

/** The same request against the bare server that does only what the contract asks of every counted request. */
const againstTheContract = (row: Scenario, baselinePath: string, sending: string): Scenario =>
  againstFloor(row, `${row.id}ContractFloor`, baselinePath, `sending ${sending}`);

const againstFloor = ({ target: _target, ...row }: Scenario, id: string, baselinePath: string, referenceLabel: string): Scenario => ({
  ...row,
  id,
  baselinePath,
  referenceLabel,
});

export const SCENARIOS: Scenario[] = [
  PRODUCT,
  {
    ...againstItsHeaders(PRODUCT, FLOOR_PATH, 'headers'),
    // Issue 31: what the handler may cost on top of the header contract itself.
    target: { bun: 0.9, deno: 0.95, node: 0.85 },
  },
  // The least any implementation of the contract pays for a counted GET (bodies.ts, `contractAnswer`).
  againstTheContract(
    PRODUCT,
    CONTRACT_FLOOR_PATH,
    "the service's headers after only what the contract asks of each request (the client's address, Accept, Accept-Encoding and If-None-Match read, one count in a Map)",
  ),
  {
    ...againstItsHeaders(PRODUCT, FLOOR_PATH, 'headers'),
    // How most deployments run, behind a load balancer: the client's address is read from the header.
    id: 'productBehindProxy',
    label: 'GET /api/v1/product, behind one trusted proxy (X-Forwarded-For names the client)',
    request: { path: '/api/v1/product', headers: { 'X-Forwarded-For': '203.0.113.7' } },
    instance: 'proxied',
  },
  NOT_FOUND,
  againstItsHeaders(NOT_FOUND, NOT_FOUND_FLOOR_PATH, '404 headers'),
  againstTheContract(
    NOT_FOUND,
    NOT_FOUND_CONTRACT_FLOOR_PATH,
    "the service's 404 headers after only what the contract asks of each request (the client's address read, one count in a Map)",
  ),
  { id: 'openapi', label: 'GET /openapi.json', request: { path: '/openapi.json' }, reference: 'baseline' },
  {
    id: 'openapiGzip',
    label: 'GET /openapi.json, gzip',
    request: { path: '/openapi.json', headers: { 'Accept-Encoding': 'gzip' } },
    reference: 'baseline',
  },
  {
    id: 'mcp2025',
    label: 'MCP tools/call get_product_overview (2025-06-18, no initialize)',
    request: {
      path: '/mcp',
      method: 'POST',
      headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify(MCP_CALL),
    },
    reference: 'productAfterMcp',
    target: { bun: 0.5, deno: 0.5, node: 0.5 },
    instance: 'mcp',
  },
  {
    id: 'mcp2026',
    label: `MCP tools/call get_product_overview (${MODERN} envelope)`,
    request: {
      path: '/mcp',
      method: 'POST',
      headers: { ...MCP_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_product_overview' },
      body: JSON.stringify({
        ...MCP_CALL,
        params: {
          ...MCP_CALL.params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
          },
        },
      }),
    },
    reference: 'productAfterMcp',
    target: { bun: 0.5, deno: 0.5, node: 0.5 },
    instance: 'mcp',
  },
  {
    id: 'productAfterMcp',
    label: 'GET /api/v1/product, on the instance that answers the MCP rows',
    request: { path: '/api/v1/product' },
    reference: 'product',
    referenceLabel: 'the same on the instance that answers GETs alone',
    instance: 'mcp',
  },
  {
    id: 'productRedis',
    label: 'GET /api/v1/product, Redis store (wrk over HTTP)',
    request: { path: '/api/v1/product' },
    reference: 'product',
    referenceLabel: 'the same with the memory store',
    target: { bun: 0.7, deno: 0.7, node: 0.7 },
    instance: 'redis',
  },
  {
    id: 'productRedisCluster',
    label: 'GET /api/v1/product, Redis Cluster store (wrk over HTTP)',
    request: { path: '/api/v1/product' },
    reference: 'product',
    referenceLabel: 'the same with the memory store',
    target: { bun: 0.7, deno: 0.7, node: 0.7 },
    instance: 'redis-cluster',
  },
];

/** The rows BENCH_SCENARIOS names, with the service rows they are measured against. */
export function selectedScenarios(): Scenario[] {
  if (!onlyScenarios) return SCENARIOS;
  const wanted = new Set(onlyScenarios);
  for (const s of SCENARIOS) if (wanted.has(s.id) && s.reference !== 'baseline') wanted.add(s.reference);
  return SCENARIOS.filter((s) => wanted.has(s.id));
}
