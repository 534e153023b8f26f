import { Argument, Command, Option } from 'commander';
import { NOUNS, type NounModule } from '../commands/registry.js';
import { readBuildFile } from '../contract/build-files.js';
import type { CommandInfo, CommandSpec, NounInfo, OptionSpec } from './define.js';
import { addExitCodes, examples, exitCodes, notes } from './help.js';
import { HELP_LAYOUT } from './help-layout.js';
import { VERSION } from '../contract/version.js';
import { LIMITS } from '../contract/validate.js';

/** Runs a command once commander has parsed it: the runner in main.ts supplies this. */
export type Execute = (load: () => Promise<CommandSpec<unknown>>, command: Command, positional: unknown[]) => Promise<void>;

/** The definitions of every command as data, by noun (dist/commands/<noun>.json in a build). */
export interface Manifest {
  [noun: string]: { own?: CommandInfo; verbs: Record<string, CommandInfo> };
}

/** Global options that take a value, so the word after them is not a command name. */
const VALUE_OPTIONS = new Set(['--base-url', '--api-key', '--api-key-file', '--profile', '--fields', '--timeout', '--jq', '--max-response', '--record']);

/** The words of argv that name a command, the noun and then its verb (skipping global options and their values). */
export function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] as string;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) words.push(arg);
  }
  return words;
}

/**
 * Builds the command tree. When argv names a known command, only that noun is defined: start-up is
 * a budget, and the other nouns cannot matter to that run. A build reads the definitions from
 * dist/commands/, so only the module of the command that runs is ever loaded; from the
 * sources (tests, the build itself) every definition is loaded from its own file.
 */
export async function buildProgram(argv: string[] = [], execute?: Execute): Promise<Command> {
  const program = new Command('agentctl')
    .description('Manage browser-automation tasks and long-lived AI agents from a terminal, a script or CI.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .addHelpCommand(false)
    .configureHelp(HELP_LAYOUT)
    .showSuggestionAfterError(true)
    .exitOverride();

  addGlobalOptions(program);
  const [word, verb] = commandWords(argv);
  const only = NOUNS.some(([name]) => name === word);
  // `tasks --help list` shows the noun's help, which lists every verb.
  const verbThatRuns = only && !argv.includes('-h') && !argv.includes('--help') ? verb : undefined;
  for (const [name, load] of NOUNS) {
    if (only && name !== word) continue;
    await addNoun(program, await load(), storedDefinitions(name), execute, verbThatRuns);
  }

  examples(program, [
    'agentctl emulator &                      # a local service to try things against',
    'agentctl tasks create "Find the cheapest flight to Oslo" --follow',
    'agentctl tasks list --status completed --json | jq -r ".[].id"',
    'agentctl help tasks create               # the same as: agentctl tasks create --help',
  ]);
  addExitCodes(program);
  return program;
}

/** Every definition as data, for the build to store (see scripts/build.mjs). */
export async function commandManifest(): Promise<Manifest> {
  const manifest: Manifest = {};
  for (const [name, load] of NOUNS) {
    const module = await load();
    const entry: Manifest[string] = { verbs: {} };
    if (module.noun.own) entry.own = info((await module.noun.own()).command);
    for (const [verb, loadVerb] of Object.entries(module.noun.verbs ?? {})) entry.verbs[verb] = info((await loadVerb()).command);
    manifest[name] = entry;
  }
  return manifest;
}

function info(spec: CommandInfo): CommandInfo {
  const { name, summary, args, options, examples: lines, notes, exitCodes: codes } = spec;
  return { name, summary, args, options, examples: lines, notes, exitCodes: codes };
}

/**
 * A noun's stored definitions (dist/commands/<noun>.json in a build: one small file per noun, so a
 * run reads only its own); undefined when running from the sources, where they come from the modules.
 */
function storedDefinitions(noun: string): Manifest[string] | undefined {
  try {
    // import.meta.dirname, not import.meta.url: a file URL would load node:url (~1 ms of start-up).
    return JSON.parse(readBuildFile(import.meta.dirname, `commands/${noun}.json`)) as Manifest[string];
  } catch {
    return undefined;
  }
}

/** What gh users type for list, delete and get (`gh repo ls`, `gh release rm`, `gh issue view`). */
export const VERB_ALIASES: Readonly<Record<string, string>> = { ls: 'list', rm: 'delete', view: 'get' };

/**
 * argv with a verb alias (`tasks ls`) replaced by the verb it stands for, when the noun has that
 * verb. Rewritten rather than declared to commander, so a mistyped verb is still matched against
 * the real names (`tasks lst`: "Did you mean list?") and help lists each verb once.
 */
export function resolveVerbAlias(program: Command, argv: string[]): string[] {
  let words = 0;
  for (let i = 0; i < argv.length && words < 2; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-') && ++words === 2) {
      const verb = VERB_ALIASES[arg];
      const noun = program.commands.find((command) => command.name() === commandWords(argv)[0]);
      if (verb === undefined || !noun?.commands.some((command) => command.name() === verb)) return argv;
      return [...argv.slice(0, i), verb, ...argv.slice(i + 1)];
    }
  }
  return argv;
}

/** Nouns with an action of their own (`webhook-listen`): the word after them may be an argument, not a verb. */
const OWN_ACTION = new WeakSet<Command>();

/**
 * argv without its help flags when it names an unknown command (`agentctl tasks bogus --help`):
 * commander would show the help of `tasks` and exit 0, as if the command existed; without them it
 * reports the unknown command, with the one it resembles, and exits 2.
 */
export function withoutHelpForUnknownCommand(program: Command, argv: string[]): string[] {
  const [noun, verb] = commandWords(argv);
  if (noun === undefined) return argv;
  const find = (parent: Command, name: string) => parent.commands.find((command) => command.name() === name || command.aliases().includes(name));
  const nounCommand = find(program, noun);
  const unknown = !nounCommand || (verb !== undefined && !OWN_ACTION.has(nounCommand) && verb !== 'help' && !find(nounCommand, verb));
  if (!unknown) return argv;
  const end = argv.indexOf('--');
  return argv.filter((arg, i) => (end !== -1 && i >= end) || (arg !== '--help' && arg !== '-h'));
}

/**
 * Defines a noun and its verbs; given the verb that runs, only that one (a noun's other verbs cost
 * start-up and matter only to its help and to suggestions for a mistyped verb, which get them all).
 */
async function addNoun(program: Command, module: NounModule, stored: Manifest[string] | undefined, execute?: Execute, verbThatRuns?: string): Promise<void> {
  const noun: NounInfo = module.noun;
  const verbs = Object.entries(noun.verbs ?? {});
  const wanted = verbThatRuns === undefined ? undefined : (VERB_ALIASES[verbThatRuns] ?? verbThatRuns);
  const runs = noun.own ? undefined : verbs.find(([verb]) => verb === wanted);
  const command = program.command(noun.name).description(noun.summary);
  if (noun.own) {
    OWN_ACTION.add(command);
    // A command of its own (`schedule-preview EXPR`): its definition carries the notes and examples.
    const load = noun.own;
    defineArguments(command, stored?.own ?? (await load()).command, execute, async () => (await load()).command);
  } else {
    notes(command, noun.notes);
    examples(command, noun.examples ?? []);
  }
  for (const [verb, load] of runs ? [runs] : verbs) {
    const definition = stored?.verbs[verb] ?? (await load()).command;
    const sub = command.command(verb).description(definition.summary);
    defineArguments(sub, definition, execute, async () => (await load()).command);
    if (noun.own) keepOwnOptionsOff(sub);
  }
  if (noun.own && noun.verbs) giveSharedOptionsToVerbs(command);
}

/**
 * A noun with its own action and verbs (`webhook-listen`, `webhook-listen replay`): its options
 * are its action's, not global ones, so a verb's help lists only the program's.
 */
function keepOwnOptionsOff(verb: Command): void {
  verb.configureHelp({
    ...HELP_LAYOUT,
    visibleGlobalOptions: (command) => {
      let root = command;
      while (root.parent) root = root.parent;
      return root.options.filter((option) => !option.hidden);
    },
  });
}

/**
 * Commander hands an option to the first command on the line that declares it, so a verb's
 * `--forward-to` typed after `webhook-listen replay` would land on `webhook-listen`: move such
 * values to the verb that runs.
 */
function giveSharedOptionsToVerbs(noun: Command): void {
  noun.hook('preSubcommand', (_noun, verb) => {
    for (const option of verb.options) {
      const key = option.attributeName();
      if (noun.getOptionValueSource(key) !== 'cli') continue;
      verb.setOptionValueWithSource(key, noun.getOptionValue(key), 'cli');
      noun.setOptionValueWithSource(key, undefined, 'default');
    }
  });
}

function defineArguments(command: Command, spec: CommandInfo, execute: Execute | undefined, load: () => Promise<CommandSpec<unknown>>): void {
  for (const argument of spec.args ?? []) {
    const defined = new Argument(argument.name, argument.description);
    if (argument.choices) defined.choices(argument.choices);
    command.addArgument(defined);
  }
  // Commander checks required options before arguments (`persistent message` alone would ask for
  // --channel before the id and body): they are checked in the action, after the arguments.
  const required: Option[] = [];
  for (const option of spec.options ?? []) {
    const defined = toOption(option);
    command.addOption(defined);
    if (option.required) required.push(defined);
  }
  notes(command, spec.notes);
  exitCodes(command, spec.exitCodes);
  if (spec !== undefined && command.description() === '') command.description(spec.summary);
  examples(command, spec.examples);
  command.action(async (...params: unknown[]) => {
    if (!execute) throw new Error('this program was built for help only');
    const missing = required.find((option) => command.getOptionValue(option.attributeName()) === undefined);
    if (missing) command.error(`error: required option '${missing.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
    await execute(load, params[params.length - 1] as Command, params.slice(0, -2));
  });
}

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return option;
}

function addGlobalOptions(program: Command): void {
  program
    .option('--base-url <url>', 'service base URL including the version segment (env AGENTCTL_BASE_URL)')
    .option('--insecure-http', 'allow a plain http:// base URL to another machine: the API key crosses the network in clear text (env AGENTCTL_INSECURE_HTTP=1; loopback needs no flag)')
    .option('--api-key <key>', 'API key (env AGENTCTL_API_KEY; argv is visible to other users: prefer env, config or --api-key-file)')
    .option('--api-key-file <path>', 'read the API key from a file (- for stdin)')
    .option('--profile <name>', 'named profile in the config file (env AGENTCTL_PROFILE)')
    .option('--json', 'machine output: one JSON document on stdout')
    .option('--jsonl', 'list commands: one JSON object per line (streams with --all)')
    .option('--fields <a,b>', 'columns of a table / keys kept in JSON (an unknown name is an error that lists the known ones)')
    .option('--jq <expr>', 'filter the JSON output with a jq expression (implies --json; strings print raw)')
    .option('--no-color', 'no ANSI colour (also off when stdout is not a terminal, or NO_COLOR is set)')
    .option('-q, --quiet', 'nothing on stderr but errors')
    .option('--verbose', 'HTTP trace on stderr with secrets redacted (env AGENTCTL_DEBUG=1)')
    .option('--timeout <sec>', 'per-request timeout in seconds (default 30); for waits, how long to wait')
    .option('--record <file>', 'append each request and answer to FILE as a cassette, secrets taken out (env AGENTCTL_RECORD; replay: agentctl emulator check FILE)')
    .option('--max-response <mb>', `largest answer read, in MB (default ${LIMITS.bodyMb}, up to ${LIMITS.bodyMbCeiling}; env AGENTCTL_MAX_RESPONSE_MB)`);
}
