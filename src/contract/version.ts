// The package's version, for every face (the command line, the MCP server, the library's User-Agent).
// Replaced at build time from package.json; the fallback is for tests that import sources directly.
declare const AGENTCTL_VERSION: string;
export const VERSION: string = typeof AGENTCTL_VERSION === 'string' ? AGENTCTL_VERSION : '0.0.0-dev';
