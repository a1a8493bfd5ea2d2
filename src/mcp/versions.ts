/**
 * @module The MCP protocol revisions served, newest first: the one list that server/discover, the
 * unsupported-version error (-32022), the server card, the API index and the OpenAPI document name.
 * Kept apart from the SDK, so naming them loads nothing.
 */
/** The revision of the stateless era (`server/discover`); the others are the 2025 ones (`initialize`). */
export const MODERN_REVISION = '2026-07-28';
export const MCP_PROTOCOL_VERSIONS = [MODERN_REVISION, '2025-11-25', '2025-06-18', '2025-03-26'];

/** The one revision with JSON-RPC batches (2025-06-18 removed them), and the one a request without MCP-Protocol-Version is taken for. */
export const BATCH_REVISION = '2025-03-26';

/** The JSON-RPC methods the service answers: every one reads (tools/call only read-only tools). */
export const MCP_METHODS: readonly string[] = [
  'initialize',
  'notifications/initialized',
  'notifications/cancelled',
  'server/discover',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'skills/list',
  'skills/get',
];
