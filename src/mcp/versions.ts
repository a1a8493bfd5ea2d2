/** @module The MCP protocol revisions served, newest first (kept apart from the SDK so naming them loads nothing). */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
