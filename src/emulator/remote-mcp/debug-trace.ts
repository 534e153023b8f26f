import { agentAccess, agentRef } from './access.js';
import type { Args } from './args.js';
import type { McpServices } from './context.js';
import type { ToolHandler } from './tool-result.js';

// gobii_get_agent_debug_trace (remote_mcp.py _tool_get_agent_debug_trace over
// api/services/agent_debug_trace.py build_agent_debug_trace).

export const TRACE_TOOLS: Record<string, ToolHandler> = { gobii_get_agent_debug_trace: debugTrace };

/** A first cut: the agent and the bounds (the sections follow). */
function debugTrace({ state }: McpServices, args: Args) {
  const agent = agentAccess(state, args.agent_id, args);
  return { agent: agentRef(agent), scope: { agent_id: agent.id, limit: 20, include: [], detail: 'standard' }, redaction: { mode: 'sanitized', replacement: '[REDACTED]' }, warnings: [] };
}
