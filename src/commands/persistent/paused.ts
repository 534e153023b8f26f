import { ApiError } from '../../api/errors.js';
import { ServiceMcpMissingError, ServiceToolError } from '../../api/service-mcp.js';
import { WEB_WITHOUT_MCP } from '../../core/web-message.js';

/**
 * A message to a paused agent is refused with 409 (`agent_inactive`) over REST, and as a tool error
 * with that code by the service's MCP send: the same error, with the command that lets the message
 * through. (The MCP server names its `persistent_activate` tool.)
 */
export function explainPaused(error: unknown, agentId: string): unknown {
  const hint = `the agent is paused: \`agentctl persistent activate ${agentId}\`, then send again`;
  if (error instanceof ServiceToolError && error.code === 'agent_inactive') return new ServiceToolError(error.tool, error.problem, error.code, error.details, hint);
  if (!(error instanceof ApiError) || error.status !== 409) return error;
  return new ApiError(error.status, error.body, error.method, error.url, error.retryAfter, hint);
}

/** A service without the MCP endpoint takes no web message that it would process: say how to send by e-mail. */
export function explainNoServiceMcp(error: unknown, agentId: string, instead = `agentctl persistent message ${agentId} TEXT --channel email --sender you@example.com`): unknown {
  if (!(error instanceof ServiceMcpMissingError)) return error;
  return new ServiceMcpMissingError(error.baseUrl, `${error.hint ?? WEB_WITHOUT_MCP}: \`${instead}\``);
}
