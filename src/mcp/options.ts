// The settings of `agentctl mcp` that both the command (its help and flags) and the engine read;
// kept apart from the engine so that the help page loads no server code.

/** The environment variable that sets the bearer token of --http (printed when unset). */
export const TOKEN_VARIABLE = 'AGENTCTL_MCP_TOKEN';
