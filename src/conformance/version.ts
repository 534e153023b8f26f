import type { ApiClient } from '../api/client.js';
import { strippedLine } from '../contract/text.js';

// The deployment's version, where it tells: gobii-platform's remote MCP server (POST /api/v1/mcp/,
// api/mcp_views.py) answers `initialize` with serverInfo.version, the platform's release
// (REMOTE_MCP_SERVER_VERSION in api/services/remote_mcp.py, "2.31.0" in 2.31). It is stateless: no
// session is made. The REST API itself names no version (its OpenAPI document says 0.1.0 throughout).

const LONGEST = 40;

/** The version the deployment names, or null (an older one without the MCP endpoint, an error, a strange answer). */
export async function serviceVersion(client: ApiClient, signal: AbortSignal): Promise<string | null> {
  const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agentctl-conformance', version: '1' } } };
  try {
    const answer = await client.post<{ result?: { serverInfo?: { name?: unknown; version?: unknown } } }>('/mcp/', body, { signal, retries: 1 });
    const info = answer?.result?.serverInfo;
    if (typeof info?.version !== 'string') return null;
    const name = typeof info.name === 'string' ? `${info.name} ` : '';
    // Hostile text: one short line, no controls.
    return strippedLine(`${name}${info.version}`).slice(0, LONGEST);
  } catch {
    return null;
  }
}
