// The command reference (docs/commands/*.md, one page per top-level command, like gh's manual) and
// the man pages (man/agentctl.1, man/agentctl-<command>.1), generated from the command tree through
// commander's own help formatter, the one that renders `--help` and the build's dist/help/ pages,
// so they say what `--help` says. `npm run docs` writes them; a test fails while they are stale.
import type { Command, Help } from 'commander';
import { examplesOf, exitCodesFor, notesOf } from './help.js';

interface Item {
  term: string;
  description: string;
}

/** One command as its help shows it. */
interface CommandDoc {
  /** 'tasks create' ('' for the program). */
  path: string;
  /** 'agentctl tasks create'. */
  name: string;
  usage: string;
  summary: string;
  arguments: Item[];
  options: Item[];
  /** The command's verbs, with their own docs. */
  verbs: CommandDoc[];
  /** Its verbs as the help lists them (term with arguments, summary). */
  verbList: Item[];
  notes?: string;
  examples: string[];
  exitCodes: Item[];
  /** A noun that only groups verbs (`tasks`), rather than a command that runs (`emulator`). */
  grouping: boolean;
}

/** What the environment changes, for the program's page (settings are documented in docs/configuration.md). */
const ENVIRONMENT: Item[] = [
  { term: 'AGENTCTL_BASE_URL', description: 'the service base URL, including the version segment (default http://127.0.0.1:8787/api/v1, where `agentctl emulator` listens)' },
  { term: 'AGENTCTL_API_KEY', description: 'the API key (for the default address, the emulator\'s key is used when none is set)' },
  { term: 'AGENTCTL_PROFILE', description: 'the profile of the config file to use' },
  { term: 'AGENTCTL_DEBUG', description: '1: trace HTTP on stderr, as --verbose (keys and secrets redacted)' },
  { term: 'AGENTCTL_NO_COMPILE_CACHE', description: "1: do not keep V8's code cache of agentctl between runs" },
  { term: 'NO_COLOR', description: 'set: no colour' },
  { term: 'XDG_CONFIG_HOME', description: 'holds agentctl/config.json (default ~/.config)' },
  { term: 'XDG_CACHE_HOME', description: "holds agentctl/v8-code, V8's code cache (default ~/.cache)" },
];

const FILES: Item[] = [
  {
    term: '$XDG_CONFIG_HOME/agentctl/config.json',
    description: 'profiles: base URL and API key per profile; written with mode 0600 in a 0700 folder (`agentctl config path` prints where it is)',
  },
];

/** The first line of every generated file says so. */
const GENERATED = "Generated from agentctl's command tree by `npm run docs`: edit the commands, not this file.";

function describe(command: Command, path: string[]): CommandDoc {
  const help = command.createHelp() as Help;
  const isRoot = path.length === 0;
  const options = help
    .visibleOptions(command)
    // -h is everywhere: the program's page lists it once.
    .filter((option) => isRoot || option.long !== '--help')
    .map((option) => ({ term: help.optionTerm(option), description: help.optionDescription(option) }));
  const verbs = help
    .visibleCommands(command)
    // commander's implicit `help` verb of a noun, and the program's `help` command, get no page.
    .filter((sub) => sub.name() !== 'help');
  const pathText = path.join(' ');
  return {
    path: pathText,
    name: ['agentctl', ...path].join(' '),
    usage: help.commandUsage(command),
    summary: help.commandDescription(command),
    arguments: help.visibleArguments(command).map((argument) => ({ term: help.argumentTerm(argument), description: help.argumentDescription(argument) })),
    options,
    verbs: isRoot ? [] : verbs.map((sub) => describe(sub, [...path, sub.name()])),
    verbList: help.visibleCommands(command).map((sub) => ({ term: help.subcommandTerm(sub), description: help.subcommandDescription(sub) })),
    notes: notesOf(command),
    examples: examplesOf(command),
    exitCodes: exitCodesFor(pathText, command).map(({ code, meaning }) => ({ term: String(code), description: meaning })),
    grouping: verbs.length > 0 && command.registeredArguments.length === 0 && options.length === 0,
  };
}

/** A block of notes: plain lines (a paragraph) or indented ones (kept as they are). */
interface Block {
  preformatted: boolean;
  lines: string[];
}

function blocks(text: string): Block[] {
  const result: Block[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    let current: Block | undefined;
    for (const line of paragraph.split('\n')) {
      const preformatted = /^\s/.test(line);
      if (current?.preformatted !== preformatted) result.push((current = { preformatted, lines: [] }));
      current.lines.push(line);
    }
  }
  for (const block of result) {
    if (!block.preformatted) continue;
    const indent = Math.min(...block.lines.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)![0].length));
    block.lines = block.lines.map((line) => line.slice(indent));
  }
  return result;
}

// ---- Markdown ----

/** Text for Markdown: punctuation that would format is escaped, except inside `code`. */
function md(text: string): string {
  return text
    .split(/(`[^`\n]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/[\\*_<>[\]|]/g, '\\$&').replace(/^([#+-]|\d+\.)(?= )/gm, '\\$1')))
    .join('');
}

const code = (text: string) => `\`${text}\``;
const fence = (lines: string[], language = '') => ['```' + language, ...lines, '```'].join('\n');
const mdList = (items: Item[]) => items.map((item) => `- ${code(item.term)}: ${md(item.description)}`).join('\n');
const mdTable = (head: [string, string], items: Item[]) =>
  [`| ${head[0]} | ${head[1]} |`, '|---|---|', ...items.map((item) => `| ${item.term} | ${md(item.description)} |`)].join('\n');

function mdNotes(text: string): string {
  return blocks(text)
    .map((block) => (block.preformatted ? fence(block.lines, 'text') : md(block.lines.join('\n'))))
    .join('\n\n');
}

/** A command's sections, under headings of `level`. */
function mdSections(doc: CommandDoc, level: number): string[] {
  const heading = (title: string) => `${'#'.repeat(level)} ${title}`;
  const parts = [fence([doc.usage])];
  if (doc.arguments.length > 0) parts.push(heading('Arguments'), mdList(doc.arguments));
  if (doc.options.length > 0) parts.push(heading('Options'), mdList(doc.options));
  if (doc.notes) parts.push(mdNotes(doc.notes));
  if (doc.examples.length > 0) parts.push(heading('Examples'), fence(doc.examples, 'sh'));
  parts.push(heading('Exit codes'), mdTable(['exit', 'meaning'], doc.exitCodes));
  return parts;
}

const anchor = (title: string) => title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');

function mdCommandPage(doc: CommandDoc): string {
  const parts = [`<!-- ${GENERATED} -->`, `# ${doc.name}`, md(doc.summary)];
  // The command's notes describe it: they come first, before its usage.
  if (doc.notes) parts.push(mdNotes(doc.notes));
  if (doc.grouping) {
    if (doc.examples.length > 0) parts.push(fence(doc.examples, 'sh'));
  } else {
    parts.push(...mdSections({ ...doc, notes: undefined }, 2));
  }
  if (doc.verbs.length > 0) {
    parts.push('## Commands', doc.verbs.map((verb) => `- [${code(verb.name)}](#${anchor(verb.name)}): ${md(verb.summary)}`).join('\n'));
    for (const verb of doc.verbs) parts.push(`## ${verb.name}`, md(verb.summary), ...mdSections(verb, 3));
  }
  parts.push('## See also', `The options every command takes: [agentctl](README.md#global-options). The man page: \`man ${manName(doc)}\`.`);
  return `${parts.join('\n\n')}\n`;
}

function mdProgramPage(doc: CommandDoc, nouns: CommandDoc[]): string {
  const pageOf = new Map(nouns.map((noun) => [noun.path, `agentctl-${noun.path}.md`]));
  const commands = doc.verbList.map((item) => {
    const word = item.term.split(' ')[0]!;
    const page = pageOf.get(word);
    return { term: page ? `[${code(`agentctl ${word}`)}](${page})` : code(`agentctl ${item.term}`), description: item.description };
  });
  const parts = [
    `<!-- ${GENERATED} -->`,
    '# agentctl',
    md(doc.summary),
    fence([doc.usage]),
    'Every command, its options and examples. The same pages are man pages in the package (`man agentctl`, `man agentctl-tasks`, ...), and `agentctl help COMMAND` prints a command\'s help.',
    '## Commands',
    mdTable(['command', 'what it does'], commands),
    '## Global options',
    'Every command takes these.',
    mdList(doc.options),
    '## Environment',
    mdList(ENVIRONMENT),
    '## Files',
    mdList(FILES),
    '## Examples',
    fence(doc.examples, 'sh'),
    '## Exit codes',
    mdTable(['exit', 'meaning'], doc.exitCodes),
  ];
  return `${parts.join('\n\n')}\n`;
}

// ---- roff (man(7)) ----

/** Text for roff: backslashes and hyphens escaped (so flags copy as ASCII), no line taken for a request. */
function roffLine(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
}

/** Running text for roff: as roffLine, and `code` in bold. */
const roff = (text: string) => roffLine(text).replace(/`([^`\n]+)`/g, '\\fB$1\\fR');

const manName = (doc: CommandDoc) => (doc.path === '' ? 'agentctl' : `agentctl-${doc.path.split(' ')[0]}`);
/** A verb's own page, as git has them (`man agentctl-tasks-create`). */
const verbManName = (verb: CommandDoc) => `agentctl-${verb.path.split(' ').join('-')}`;
const roffDefinitions = (items: Item[]) => items.flatMap((item) => ['.TP', `\\fB${roff(item.term)}\\fR`, roff(item.description)]);
const roffLiteral = (lines: string[]) => ['.PP', '.RS 4', '.nf', ...lines.map(roffLine), '.fi', '.RE'];

function roffNotes(text: string): string[] {
  return blocks(text).flatMap((block) => (block.preformatted ? roffLiteral(block.lines) : ['.PP', ...block.lines.map(roff)]));
}

function roffSections(doc: CommandDoc, heading: (title: string) => string): string[] {
  const lines: string[] = [];
  if (doc.arguments.length > 0) lines.push(heading('Arguments'), ...roffDefinitions(doc.arguments));
  if (doc.options.length > 0) lines.push(heading('Options'), ...roffDefinitions(doc.options));
  if (doc.notes) lines.push(...roffNotes(doc.notes));
  if (doc.examples.length > 0) lines.push(heading('Examples'), ...roffLiteral(doc.examples));
  lines.push(heading('Exit status'), ...roffDefinitions(doc.exitCodes));
  return lines;
}

function roffPage(doc: CommandDoc, version: string, seeAlso: string[], body: string[], title = manName(doc)): string {
  const lines = [
    `.\\" ${GENERATED}`,
    `.TH ${roff(title.toUpperCase())} 1 "" "agentctl ${roff(version)}" "agentctl manual"`,
    // Flags and paths are not hyphenated, and lines are not stretched to the margin.
    '.nh',
    '.ad l',
    '.SH NAME',
    `${roff(title)} \\- ${roff(doc.summary)}`,
    ...body,
    '.SH SEE ALSO',
    seeAlso.map((name, index) => `.BR ${roff(name)} (1)${index < seeAlso.length - 1 ? ',' : ''}`).join('\n'),
  ];
  return `${lines.join('\n')}\n`;
}

function roffCommandPage(doc: CommandDoc, version: string): string {
  const usages = doc.grouping ? doc.verbs.map((verb) => verb.usage) : [doc.usage, ...doc.verbs.map((verb) => verb.usage)];
  const body = ['.SH SYNOPSIS', '.nf', ...usages.map(roff), '.fi', '.SH DESCRIPTION', roff(doc.summary)];
  if (doc.notes) body.push(...roffNotes(doc.notes));
  if (doc.grouping) {
    if (doc.examples.length > 0) body.push(...roffLiteral(doc.examples));
  } else {
    body.push(...roffSections({ ...doc, notes: undefined }, (title) => `.SH ${title.toUpperCase()}`));
  }
  if (doc.verbs.length > 0) {
    body.push('.SH COMMANDS');
    for (const verb of doc.verbs) {
      body.push(`.SS ${roff(verb.name)}`, roff(verb.summary), ...roffLiteral([verb.usage]), ...roffSections(verb, (title) => `.PP\n\\fI${title}\\fR`));
    }
  }
  body.push('.SH GLOBAL OPTIONS', 'Every command takes the global options listed in', '.BR agentctl (1).');
  return roffPage(doc, version, ['agentctl'], body);
}

/** A verb's own page: its synopsis, arguments, options, notes, examples and exit status. */
function roffVerbPage(noun: CommandDoc, verb: CommandDoc, version: string): string {
  const body = ['.SH SYNOPSIS', '.nf', roff(verb.usage), '.fi', '.SH DESCRIPTION', roff(verb.summary)];
  if (verb.notes) body.push(...roffNotes(verb.notes));
  body.push(...roffSections({ ...verb, notes: undefined }, (title) => `.SH ${title.toUpperCase()}`));
  body.push('.SH GLOBAL OPTIONS', 'Every command takes the global options listed in', '.BR agentctl (1).');
  return roffPage(verb, version, [manName(noun), 'agentctl'], body, verbManName(verb));
}

function roffProgramPage(doc: CommandDoc, nouns: CommandDoc[], version: string): string {
  const body = [
    '.SH SYNOPSIS',
    `.B agentctl`,
    '[\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    roff(doc.summary),
    '.PP',
    `Each command has its own page, and \\fBagentctl help\\fR \\fIcommand\\fR prints its help.`,
    '.SH COMMANDS',
    ...doc.verbList.flatMap((item) => {
      const word = item.term.split(' ')[0]!;
      const noun = nouns.find((candidate) => candidate.path === word);
      return ['.TP', noun ? `.BR ${roff(manName(noun))} (1)` : `\\fBagentctl ${roff(item.term)}\\fR`, roff(item.description)];
    }),
    '.SH OPTIONS',
    'Every command takes these.',
    ...roffDefinitions(doc.options),
    '.SH ENVIRONMENT',
    ...roffDefinitions(ENVIRONMENT),
    '.SH FILES',
    ...roffDefinitions(FILES),
    '.SH EXAMPLES',
    ...roffLiteral(doc.examples),
    '.SH EXIT STATUS',
    ...roffDefinitions(doc.exitCodes),
  ];
  return roffPage(doc, version, nouns.map(manName), body);
}

/**
 * Every generated file by its path in the repository: docs/commands/README.md (the program) and
 * docs/commands/agentctl-<command>.md, man/agentctl.1, man/agentctl-<command>.1 and a page per
 * verb, man/agentctl-<command>-<verb>.1.
 */
export function referencePages(program: Command, version: string): Record<string, string> {
  const root = describe(program, []);
  const nouns = program.commands.filter((command) => command.name() !== 'help').map((command) => describe(command, [command.name()]));
  const files: Record<string, string> = {
    'docs/commands/README.md': mdProgramPage(root, nouns),
    'man/agentctl.1': roffProgramPage(root, nouns, version),
  };
  for (const noun of nouns) {
    files[`docs/commands/${manName(noun)}.md`] = mdCommandPage(noun);
    files[`man/${manName(noun)}.1`] = roffCommandPage(noun, version);
    for (const verb of noun.verbs) files[`man/${verbManName(verb)}.1`] = roffVerbPage(noun, verb, version);
  }
  return files;
}
