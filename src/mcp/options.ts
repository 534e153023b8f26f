// The settings of `agentctl mcp` that both the command (its help and flags) and the engine read;
// kept apart from the engine so that the help page loads no server code.

/** The environment variable that sets the bearer token of --http (printed when unset). */
export const TOKEN_VARIABLE = 'AGENTCTL_MCP_TOKEN';

/** How long tasks_wait waits when not told, seconds: well inside the 60 s after which clients end a request. */
export const DEFAULT_WAIT_SECONDS = 40;

/** The groups of tools --toolsets picks from. */
export const TOOLSETS = ['tasks', 'agents', 'persistent', 'schedule', 'links', 'files', 'inspect', 'as-code'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/**
 * The toolsets offered unless --toolsets names others: the rest (the service's peer links, files,
 * config options and debug trace) would take the tool list past what a model reads at once, and
 * agents as code reads a folder of this machine.
 */
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['tasks', 'agents', 'persistent', 'schedule'];
/** The folder of agent files the as-code tools work on, unless --agents-dir says another. */
export const DEFAULT_AGENTS_DIR = 'agents';
