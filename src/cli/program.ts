import { Command } from 'commander';
import { examples } from './help.js';
import { VERSION } from './version.js';
import { registerAgents } from '../commands/agents/index.js';
import { registerTasks } from '../commands/tasks/index.js';
import { registerAuth } from '../commands/auth/index.js';
import { registerConfig } from '../commands/config/index.js';
import { registerApi } from '../commands/api/index.js';
import { registerEmulator } from '../commands/emulator/index.js';
import { registerWebhookListen } from '../commands/webhook-listen/index.js';
import { registerPersistent } from '../commands/persistent/index.js';
import { registerSchedulePreview } from '../commands/schedule-preview/index.js';
import { registerCompletion } from '../commands/completion/index.js';

/** Every top-level command and the function that defines its subtree. */
const NOUNS: Array<[name: string, register: (program: Command) => void]> = [
  ['agents', registerAgents],
  ['tasks', registerTasks],
  ['persistent', registerPersistent],
  ['schedule-preview', registerSchedulePreview],
  ['auth', registerAuth],
  ['config', registerConfig],
  ['api', registerApi],
  ['emulator', registerEmulator],
  ['webhook-listen', registerWebhookListen],
  ['completion', registerCompletion],
];

/** Global options that take a value, so the word after them is not a command name. */
const VALUE_OPTIONS = new Set(['--base-url', '--api-key', '--api-key-file', '--profile', '--fields', '--timeout']);

/** The first word of argv that names a command (skipping global options and their values). */
export function commandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * Builds the command tree. Only definitions live here; each action loads its module lazily. When
 * argv names a known command, only that subtree is defined: start-up is a budget (`tasks --help`
 * must stay close to bare node), and the other subtrees cannot matter to that run.
 */
export function buildProgram(argv: string[] = []): Command {
  const program = new Command('agentctl')
    .description('Manage browser-automation tasks and long-lived AI agents from a terminal, a script or CI.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .addHelpCommand(false)
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .exitOverride();

  addGlobalOptions(program);
  const word = commandWord(argv);
  const only = NOUNS.find(([name]) => name === word);
  for (const [name, register] of NOUNS) if (!only || name === word) register(program);

  examples(program, [
    'agentctl emulator &                      # a local service to try things against',
    'agentctl tasks create "Find the cheapest flight to Oslo" --follow',
    'agentctl tasks list --status completed --json | jq -r ".[].id"',
  ]);
  return program;
}

function addGlobalOptions(program: Command): void {
  program
    .option('--base-url <url>', 'service base URL including the version segment (env AGENTCTL_BASE_URL)')
    .option('--api-key <key>', 'API key (env AGENTCTL_API_KEY; argv is visible to other users: prefer env, config or --api-key-file)')
    .option('--api-key-file <path>', 'read the API key from a file (- for stdin)')
    .option('--profile <name>', 'named profile in the config file (env AGENTCTL_PROFILE)')
    .option('--json', 'machine output: one JSON document on stdout')
    .option('--jsonl', 'list commands: one JSON object per line (streams with --all)')
    .option('--fields <a,b>', 'columns of a table / keys kept in JSON')
    .option('--no-color', 'no ANSI colour (also off when stdout is not a terminal, or NO_COLOR is set)')
    .option('-q, --quiet', 'nothing on stderr but errors')
    .option('--verbose', 'HTTP trace on stderr with secrets redacted (env AGENTCTL_DEBUG=1)')
    .option('--timeout <sec>', 'per-request timeout in seconds (default 30); for waits, how long to wait');
}
