// The command line's words for the API layer's hints (src/api/words.ts): its flags and commands.
import type { FaceWords } from '../api/words.js';

/** The command that shows whether a create (or another POST) to `path` (below the base URL) took effect. */
function checkCommand(path: string): string {
  const agentTasks = /^\/agents\/browser-use\/([^/]+)\/tasks\/(?:([^/]+)\/)?/.exec(path);
  if (agentTasks) return agentTasks[2] ? `\`agentctl tasks get ${agentTasks[2]} --agent ${agentTasks[1]}\`` : `\`agentctl tasks list --agent ${agentTasks[1]}\``;
  const task = /^\/tasks\/browser-use\/([^/]+)\//.exec(path);
  if (task) return `\`agentctl tasks get ${task[1]}\``;
  if (path.startsWith('/tasks/')) return '`agentctl tasks list`';
  if (path.startsWith('/agents/browser-use/')) return '`agentctl agents list`';
  if (path.startsWith('/agents/')) return '`agentctl persistent list`';
  return 'list the records it would have changed';
}

export const CLI_API_WORDS: FaceWords = {
  timeout: 'raise the limit with --timeout SEC',
  auth: 'check the API key: `agentctl auth status`, `agentctl auth login`, or set AGENTCTL_API_KEY',
  nothingAtDefault:
    'nothing is listening at the default address: start `agentctl emulator` in another terminal, or set a base URL with --base-url, AGENTCTL_BASE_URL or `agentctl auth login --base-url URL`',
  bodyAtCeiling: (limit) => `${limit} is the most agentctl reads; fetch it with another tool (curl), or ask for less (a smaller --page-size)`,
  bodyTooLarge: (ceilingMb) => `if the answer really is this big, raise the limit: --max-response MB or AGENTCTL_MAX_RESPONSE_MB (up to ${ceilingMb}; see docs/limits.md)`,
  missingApiVersion: (baseUrl, suggested) =>
    `the base URL ${baseUrl} lacks /api/v1: use --base-url ${suggested} (or set it in AGENTCTL_BASE_URL or the profile; \`agentctl doctor\` shows the one in use)`,
  moved: (moved) => `if the service has moved to ${moved} and you trust it, use that as the base URL: --base-url ${moved}, or \`agentctl config set base-url ${moved}\``,
  checkBaseUrl: 'the API key goes only to the base URL you set; check it (`agentctl doctor` shows the one in use)',
  checkWrite: checkCommand,
  readOnFrom: (page) => `, or read on page by page from --page ${page}`,
  wholeTimeline: 'as far as --all reads',
  olderFrom: (cursor) => `older events: the same command with --direction older --cursor ${cursor}`,
};
