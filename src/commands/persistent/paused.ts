import { ApiError } from '../../api/errors.js';

/**
 * A message to a paused agent is refused with 409 (`agent_inactive`): the same error, with the
 * command that lets the message through. (The MCP server names its `persistent_activate` tool.)
 */
export function explainPaused(error: unknown, agentId: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 409) return error;
  return new ApiError(error.status, error.body, error.method, error.url, error.retryAfter, `the agent is paused: \`agentctl persistent activate ${agentId}\`, then send again`);
}
