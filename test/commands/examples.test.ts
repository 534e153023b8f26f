// Every example does what its comment says. The `agentctl ...` lines of README.md's and docs/*.md's
// sh blocks and of every command's help examples run here, in-process, against one emulator, with
// the files they name and real ids in place of the placeholders; the requests the emulator saw tell
// what each did. An example ran once as `api /tasks/browser-use/ -f status=completed` ("GET: fields
// go in the query") and created a task: fields and no method mean POST. (The quick tour's run in a
// real shell is test/process/readme-tour.test.ts; this file runs every example, one line at a time.)
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesOf, exitCodesFor } from '../../src/cli/help.js';
import { buildProgram, commandWords } from '../../src/cli/program.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { USER_EMAIL } from '../../src/emulator/user.js';
import { apiRequest, eventually } from '../helpers/api.js';
import { against, tempDir } from '../helpers/cli.js';
import { FORMAT_V2, exportFiles, withChecksums, zipBytes } from '../helpers/portable-zip.js';
import { parseLine, printed, splitComment } from '../helpers/shell-line.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Example {
  /** Where it is written: 'docs/scripting.md' or 'help: tasks create'. */
  source: string;
  line: string;
}

/** The sh blocks' lines of README.md and docs/*.md that run agentctl (continuations joined). */
function docExamples(): Example[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  return files.flatMap((source) =>
    [...readFileSync(join(ROOT, source), 'utf8').matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].flatMap((block) =>
      (block[1] as string)
        .replace(/\\\n\s*/g, ' ')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => /(^|[\s|(;&])agentctl\s/.test(splitComment(line).code))
        .map((line) => ({ source, line })),
    ),
  );
}

/** Every command's help examples. */
async function helpExamples(): Promise<Example[]> {
  const found: Example[] = [];
  const visit = (command: Command, path: string[]): void => {
    for (const line of examplesOf(command)) found.push({ source: `help: ${['agentctl', ...path].join(' ')}`, line });
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(await buildProgram([]), []);
  return found;
}

/**
 * Lines that cannot run here, each with why. Every entry must still match a line (a stale one fails).
 * Matched against the line's code (its comment left off), as a prefix.
 */
const SKIPPED: Array<[prefix: string, reason: string]> = [
  ['agentctl emulator', 'starts the emulator itself: a listener until Ctrl-C (test/process/emulator.test.ts)'],
  ['npx agentctl', 'npx in a clone: a process of its own (test/process/package.test.ts)'],
  ['claude mcp add', "registers the server with another program's configuration"],
  ['npx @modelcontextprotocol/inspector', 'downloads and starts the MCP inspector (test/process/mcp-inspector.test.ts)'],
  ['AGENTCTL_MCP_TOKEN=', '`mcp --http`: a listener until Ctrl-C (test/commands/mcp-http*.test.ts)'],
  ["printf '%s\\n'  '{\"jsonrpc\"", 'a JSON-RPC session on stdin: the MCP tests speak to the server through the SDK'],
  ['agentctl webhook-listen --', 'a listener until Ctrl-C or its event (test/commands/webhook-listen.test.ts)'],
  ['agentctl webhook-listen', 'a listener until Ctrl-C (bare)'],
  ['agentctl auth login --base-url', 'asks for the key at a terminal, then checks it against that service (test/process/pty.test.ts)'],
  ['npm ', 'npm installs the package: a process of its own (test/process/package.test.ts)'],
  ['agentctl auth login --api-key-file', 'checks the key against a real service (https://service.example)'],
  ['printf %s "$KEY" | agentctl auth login', 'checks the key against a real service (https://service.example)'],
  ['agentctl doctor --profile prod', "the profile's base URL is a real service (https://service.example)"],
  ['agentctl tasks list --status in_progress --watch', 'redraws until Ctrl-C (test/commands/live-views.test.ts)'],
  ['agentctl persistent status 7c9e6679-7425-40de-944b-e07fc1f90ae7 --watch', 'redraws until Ctrl-C (test/commands/live-views.test.ts)'],
  ['agentctl persistent status ID --watch', 'redraws until Ctrl-C (test/commands/live-views.test.ts)'],
  ['agentctl tasks get 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f --watch', 'redraws until Ctrl-C (test/commands/live-views.test.ts)'],
  ['agentctl persistent timeline ID --follow', 'follows until Ctrl-C (test/commands/live-views.test.ts)'],
  ['agentctl persistent timeline 7c9e6679-7425-40de-944b-e07fc1f90ae7 --follow', 'follows until Ctrl-C (test/commands/live-views.test.ts)'],
  ['agentctl persistent chat ID', 'a conversation at a terminal until Ctrl-C'],
  ['agentctl persistent wait-event 7c9e6679-7425-40de-944b-e07fc1f90ae7', "waits for the agent's reply to a message sent first (test/commands/conversation.test.ts)"],
  ['agentctl persistent chat 7c9e6679-7425-40de-944b-e07fc1f90ae7', 'a conversation at a terminal until Ctrl-C'],
  ['agentctl tasks wait $(agentctl tasks list --status in_progress', 'needs a task in progress while the list runs that ends while the wait runs (several ids: the --any line)'],
  ['agentctl api POST "/webhooks/inbound/agents/$HOOK/', "needs an agent's inbound webhook and its secret (test/commands/api.test.ts)"],
  ['agentctl completion powershell | Out-String', 'PowerShell (test/unit/powershell-completion.test.ts)'],
  ['git clone', 'a clone of the repository'],
  ['agentctl persistent message "$agent" "Check the Oslo-Rome fare" --channel email', 'the quick tour: run in a shell by test/process/readme-tour.test.ts'],
];

/** Lines whose comment does not name their exit code; the code they end in, with why. */
const EXIT: Array<[prefix: string, code: number, reason: string]> = [
  ['agentctl tasks create "[fail] try the failure path" --follow', 5, 'the emulator fails a "[fail]" task: the example shows the failure path'],
];

/** The placeholders of the examples, by what they stand for. */
const EXAMPLE_TASK = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
const EXAMPLE_TASK_2 = '9b2e4c1d-7a3f-4e5b-8c6d-0f1e2d3c4b5a';
const EXAMPLE_PERSISTENT = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
/** The other agent of a peer link (`persistent link ID PEER`). */
const EXAMPLE_PEER = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';

/** Files the examples name that examples/ does not hold, as a user would have them. */
const EXTRA_FILES: Record<string, string> = {
  'prompts.txt': 'Check example.com\nCheck example.org\n',
  'changes.json': '{"name": "travel"}\n',
  'agent.json': '{"name": "replaced"}\n',
  'event.json': '{"subject": "hello"}\n',
  'events.jsonl': `${JSON.stringify({ received_at: '2026-01-02T08:00:00.000Z', headers: { 'content-type': 'application/json' }, body: { id: EXAMPLE_TASK, status: 'completed', agent_id: null, result: 'ok' } })}\n`,
};

interface Seen {
  method: string;
  path: string;
  status: number;
}

interface LineRun {
  /** The exit code of each agentctl run of the line, in order. */
  codes: number[];
  /** The command path of each (`tasks create`). */
  commands: string[];
  /** What the emulator saw while the line ran. */
  seen: Seen[];
  stderr: string;
}

/** Before a source's first line: what a user would have done first (the other CI jobs of a matrix ran). */
const BEFORE: Record<string, string[]> = {
  'docs/ci.md': ['agentctl tasks run-batch tasks.jsonl --shard 2/2 --follow > results-2.jsonl'],
  'help: agentctl tasks batch-report': [
    'agentctl tasks run-batch tasks.jsonl --shard 1/2 --follow > shard-1/results.jsonl',
    'agentctl tasks run-batch tasks.jsonl --shard 2/2 --follow > shard-2/results.jsonl',
  ],
};

type Kind = 'task' | 'pending' | 'agent' | 'persistent';

describe('the examples of the docs and of --help', () => {
  let service: RunningEmulator;
  let target: Server;
  let targetUrl: string;
  let home: string;
  let examples: Example[];

  beforeAll(async () => {
    service = await startEmulator({ port: 0, taskDurationMs: 20 });
    target = createServer((request, response) => request.resume().on('end', () => response.end('ok')));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`;
    home = tempDir('agentctl-examples-home-');
    mkdirSync(join(home, '.agentctl-secrets'), { mode: 0o700 }); // as `mcp --secrets-dir`'s hint says
    examples = [...docExamples(), ...(await helpExamples())];
    tree = await buildProgram([]);
  });
  afterAll(async () => {
    await service.close();
    await new Promise((resolve) => target.close(resolve));
  });

  /** A folder of the files the examples name, and a config with the profiles they name (all this emulator). */
  function freshPlace(): { work: string; config: string } {
    const work = tempDir('agentctl-examples-');
    mkdirSync(join(work, 'examples'));
    for (const name of ['charter.md', 'prompt.txt', 'schema.json', 'secrets.json', 'tasks.jsonl']) {
      copyFileSync(join(ROOT, 'examples', name), join(work, 'examples', name));
      copyFileSync(join(ROOT, 'examples', name), join(work, name)); // help examples name them bare
    }
    for (const [name, text] of Object.entries(EXTRA_FILES)) writeFileSync(join(work, name), text);
    // A portable export as the hosted service wrote it (export --from-portable's examples).
    writeFileSync(join(work, 'export.zip'), zipBytes(withChecksums(exportFiles(FORMAT_V2, [{ id: EXAMPLE_PERSISTENT, name: 'Price watcher', schedule: '@daily' }]))));
    // A folder of agent files (`plan --dir agents`), as examples/agents holds them.
    mkdirSync(join(work, 'agents'));
    for (const name of readdirSync(join(ROOT, 'examples', 'agents'))) copyFileSync(join(ROOT, 'examples', 'agents', name), join(work, 'agents', name));
    const config = tempDir('agentctl-examples-config-');
    const profile = { 'base-url': service.baseUrl, 'api-key': 'emulator-key' };
    mkdirSync(join(config, 'agentctl'), { mode: 0o700 });
    writeFileSync(join(config, 'agentctl', 'config.json'), JSON.stringify({ profiles: { default: profile, prod: profile, work: profile, lab: profile } }), { mode: 0o600 });
    return { work, config };
  }

  /** A fresh record for a placeholder (a delete in one example takes nothing from the next). */
  async function fixture(kind: Kind): Promise<string> {
    const post = (path: string, body: unknown) => apiRequest<{ id: string }>(service.baseUrl, 'POST', path, body).then((made) => made.id);
    if (kind === 'pending') return post('/tasks/browser-use/', { prompt: '[pending] fixture' });
    if (kind === 'agent') return post('/agents/browser-use/', { name: `fixture-${service.state.newId()}` });
    if (kind === 'persistent') return post('/agents/', { name: `fixture-${service.state.newId()}`, charter: 'Watch prices.' });
    // A completed task with an output schema: `tasks result --check-schema` has one to check.
    const schema = JSON.parse(readFileSync(join(ROOT, 'examples', 'schema.json'), 'utf8')) as unknown;
    const id = await post('/tasks/browser-use/', { prompt: 'fixture', output_schema: schema });
    await eventually(async () => (await apiRequest<{ status: string }>(service.baseUrl, 'GET', `/tasks/browser-use/${id}/`)).status === 'completed');
    return id;
  }

  /** What a placeholder stands for, by the command it is an argument of. */
  function kindOf(placeholder: string, command: string): Kind {
    if (placeholder === EXAMPLE_PERSISTENT || placeholder === EXAMPLE_PEER) return 'persistent';
    if (placeholder === EXAMPLE_TASK_2) return 'task';
    const [, noun, verb] = /agentctl (\S+) ?(\S*)/.exec(command) ?? [];
    if (noun === 'agents' || /\/agents\/browser-use\/$/.test(command)) return 'agent';
    if (noun === 'persistent') return 'persistent';
    return ['replace', 'update', 'cancel'].includes(verb ?? '') ? 'pending' : 'task';
  }

  /** The line with its placeholders replaced by real ids (the same placeholder, the same id). */
  async function withIds(code: string): Promise<string> {
    const ids = new Map<string, string>();
    let out = '';
    let from = 0;
    for (const match of code.matchAll(new RegExp(`${EXAMPLE_TASK}|${EXAMPLE_TASK_2}|${EXAMPLE_PERSISTENT}|${EXAMPLE_PEER}|\\b(?:TASK_)?ID\\b`, 'g'))) {
      const before = code.slice(0, match.index);
      const kind = kindOf(match[0], before.slice(before.lastIndexOf('agentctl ')));
      const key = `${match[0]} ${kind}`;
      if (!ids.has(key)) ids.set(key, await fixture(kind));
      out += code.slice(from, match.index) + ids.get(key);
      from = match.index + match[0].length;
    }
    // Stand-ins a user replaces with their own: the owner's address, a local hook receiver.
    return (out + code.slice(from)).replace(/owner@example\.com/g, USER_EMAIL).replace(/https?:\/\/(127\.0\.0\.1:3000|staging\.example)\/hook/g, targetUrl);
  }

  it('finds the examples of the README, the docs and every command', () => {
    expect(examples.filter((example) => example.source === 'README.md').length).toBeGreaterThan(15);
    expect(examples.filter((example) => example.source.startsWith('help: ')).length).toBeGreaterThan(100);
    const stale = SKIPPED.filter(([prefix]) => !examples.some((example) => splitComment(example.line).code.startsWith(prefix)));
    expect(stale, 'skip entries no example matches any more').toEqual([]);
  });

  it('runs every example, each ending as its comment says and sending the methods it claims', async () => {
    const failures: string[] = [];
    let place: Shell | undefined;
    for (const [index, { source, line }] of examples.entries()) {
      const { code, comment } = splitComment(line);
      if (SKIPPED.some(([prefix]) => code.startsWith(prefix))) continue;
      const help = source.startsWith('help: ');
      // A docs page is a session (its lines share variables, files and records); a help page's
      // examples share its files, but each starts on an empty service (they are alternatives:
      // `agents create --name shopping` twice would clash).
      if (source !== examples[index - 1]?.source || !place) {
        service.reset();
        place = new Shell(service, freshPlace(), home);
        for (const before of BEFORE[source] ?? []) await place.run(before);
      } else if (help) service.reset();
      for (const name of ['id', 'sid']) if (!place.variables.has(name) && code.includes(`$${name}`)) place.variables.set(name, await fixture('task'));
      if (!place.variables.has('agent') && code.includes('$agent')) place.variables.set('agent', await fixture('persistent'));
      const ran = await place.run(await withIds(code)).catch((error: Error): LineRun => ({ codes: [-1], commands: [''], seen: [], stderr: `the test could not run it: ${error.message}` }));
      const problems = judge(code, comment, ran);
      if (problems.length > 0) failures.push(`${source}: ${line}\n    ${problems.join('\n    ')}\n    seen: ${ran.seen.map((s) => `${s.method} ${s.path}`).join(', ') || 'no request'}\n    stderr: ${ran.stderr.trim().split('\n').slice(0, 3).join(' / ')}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

/** Runs lines as a shell would, agentctl in-process; other commands as far as the examples need them. */
class Shell {
  readonly variables = new Map<string, string>([['KEY', 'emulator-key']]);
  private readonly env: Record<string, string>;

  constructor(
    private readonly service: RunningEmulator,
    private readonly place: { work: string; config: string },
    home: string,
  ) {
    // The variables the examples read: a CI matrix's, and the secrets `--secret-env` names.
    this.env = { HOME: home, CI_NODE_INDEX: '1', CI_NODE_TOTAL: '2', SHARD: '1', SHOP_USER: 'me', SHOP_PASSWORD: 'pw' };
  }

  async run(code: string): Promise<LineRun> {
    const result: LineRun = { codes: [], commands: [], seen: [], stderr: '' };
    await this.execute(code, result);
    return result;
  }

  private async agentctl(words: string[], input: string | undefined, result: LineRun) {
    const from = this.service.requests.length;
    // A --dir folder (agent files) is in the work folder too.
    const local = words.map((word, index) => (words[index - 1] === '--dir' && /^\w[\w.-]*$/.test(word) ? join(this.place.work, word) : this.inWork(word)));
    const out = await against(this.service.baseUrl)(local, { input, env: this.env, configHome: this.place.config });
    result.seen.push(...this.service.requests.slice(from).map(({ method, path, status }) => ({ method, path, status })));
    result.codes.push(out.exitCode);
    // A command of its own (`plan --dir agents`) takes no verb: a second word is an option's value.
    const path = commandWords(words);
    result.commands.push((commandAt(path[0] ?? '')?.commands.length === 0 ? path.slice(0, 1) : path).join(' '));
    result.stderr += out.stderr;
    return out;
  }

  /** A word naming a file, made absolute in the work folder (`@file` and `key=@file` too). */
  private inWork(word: string): string {
    const file = /^([\w-]+=)?(@?)([\w][\w.*/-]*\.(?:jsonl?|txt|md|xml|ledger|zip))$/.exec(word);
    return file ? `${file[1] ?? ''}${file[2]}${join(this.place.work, file[3] as string)}` : word;
  }

  private async execute(text: string, result: LineRun): Promise<string> {
    let last = 0;
    let stdout = '';
    const pipelines = await parseLine(text, {
      variable: (name) => this.variables.get(name) ?? this.env[name],
      substitute: (inner) => (/^openssl /.test(inner) ? Promise.resolve('0'.repeat(64)) : this.execute(inner, result)),
      glob: (word) => globIn(this.place.work, word),
    });
    for (const pipeline of pipelines) {
      if ((pipeline.after === '&&' && last !== 0) || (pipeline.after === '||' && last === 0)) continue;
      let input: string | undefined;
      last = 0;
      for (const command of pipeline.commands) {
        let words = command.words;
        if (['if', 'then', 'else'].includes(words[0] ?? '')) words = words.slice(1);
        const assignment = words.length === 1 ? /^(\w+)=(.*)$/s.exec(words[0] as string) : null;
        if (assignment) this.variables.set(assignment[1] as string, (assignment[2] as string).trim());
        else if (words[0] === 'agentctl') {
          const out = await this.agentctl(words.slice(1), input, result);
          last = out.exitCode;
          input = out.stdout;
          writeLocal(this.place.work, command.stderrTo, out.stderr);
        } else input = printed(words) ?? (words[0] === 'jq' ? jq(words, input) : words[0] === 'git' ? 'Release notes\n' : input);
        writeLocal(this.place.work, command.stdoutTo, input ?? '');
      }
      stdout = input ?? '';
    }
    return stdout;
  }
}

/** What is wrong with how a line ran, against what it and its comment claim. */
function judge(code: string, comment: string, ran: LineRun): string[] {
  const problems: string[] = [];
  if (ran.codes.length === 0) problems.push('ran no agentctl command');
  // 0, or a code the comment names ("# exit 10: wrong shape", "# 0 completed, 5 failed"), or EXIT's.
  const expected = EXIT.find(([prefix]) => code.startsWith(prefix));
  const named = [...comment.matchAll(/\bexit (\d+)|\b(\d+) (?:completed|failed|cancelled|timed out)/g)].map((m) => Number(m[1] ?? m[2]));
  const allowed = new Set(expected ? [expected[1]] : [0, ...named]);
  for (const [i, exitCode] of ran.codes.entries()) {
    if (!allowed.has(exitCode)) problems.push(`exit ${exitCode}, expected ${[...allowed].join(' or ')}`);
    const listed = listedExitCodes(ran.commands[i] as string);
    if (!listed.includes(exitCode)) problems.push(`exit ${exitCode}, which \`${ran.commands[i]} --help\` does not list (${listed.join(', ')})`);
  }
  const methods = new Set(ran.seen.map((seen) => seen.method));
  const api = /^(?:\S+=\S+ )?agentctl api /.test(code);
  const claimed = new Set([...`${api ? code : ''} ${comment}`.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1] as string));
  if (/\bcreates\b/i.test(comment)) claimed.add('POST');
  if (/\blists\b/i.test(comment)) claimed.add('GET');
  if (api) {
    // `api` sends what the line says (a method word, -X, or its comment); a line that says nothing reads.
    const allowedMethods = claimed.size > 0 ? claimed : new Set(['GET']);
    for (const method of methods) if (!allowedMethods.has(method)) problems.push(`sent ${method}; the line claims ${[...allowedMethods].join('/')}`);
  } else if (claimed.has('GET') && claimed.size === 1 && [...methods].some((method) => method !== 'GET')) problems.push('the comment says it lists, but it changed something');
  else if (claimed.has('POST') && !methods.has('POST')) problems.push('the comment says it creates, but nothing was created');
  // A billable task is created only by a line that visibly creates one (a create the service refuses creates nothing).
  const creates = ran.seen.some((seen) => seen.method === 'POST' && seen.status < 300 && /^\/(?:tasks\/browser-use|agents\/browser-use\/[^/]+\/tasks)\/(?:\?|$)/.test(seen.path));
  const visibly = /agentctl (?:tasks (?:create|run-batch)|api .*\bPOST\b)/.test(code) || claimed.has('POST');
  if (creates && !visibly) problems.push('created a task without saying so');
  return problems;
}

/** The codes `agentctl PATH --help` lists. */
function listedExitCodes(path: string): number[] {
  return exitCodesFor(path, commandAt(path)).map(({ code }) => code);
}

let tree: Command | undefined;
const commandAt = (path: string): Command | undefined =>
  path.split(' ').filter(Boolean).reduce<Command | undefined>((command, name) => command?.commands.find((sub) => sub.name() === name), tree);

/** `jq -r .key` on each JSON document of the input (the filters the examples pipe into); others pass the input on. */
function jq(words: string[], input = ''): string {
  const filter = words.slice(1).find((word) => !word.startsWith('-'));
  const key = filter === undefined ? undefined : /^\.(\w+)$/.exec(filter)?.[1];
  if (key === undefined) return input;
  const documents = (() => {
    try {
      return [JSON.parse(input) as unknown];
    } catch {
      return input.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown);
    }
  })();
  return documents
    .map((document) => {
      const value = (document as Record<string, unknown>)[key];
      return `${typeof value === 'string' ? value : JSON.stringify(value)}\n`;
    })
    .join('');
}

/** The files of `folder` (two levels) a `*` word matches, relative to it; the word itself when none do. */
function globIn(folder: string, word: string): string[] {
  const pattern = new RegExp(`^${word.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  const names = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.split('/').length <= 2 && existsSync(join(folder, name)));
  const matched = names.filter((name) => pattern.test(name)).sort();
  return matched.length > 0 ? matched : [word];
}

/** A redirection to a file of the work folder (`> shard-1/results.jsonl`); others (`> ~/.zfunc/_agentctl`) are dropped. */
function writeLocal(work: string, file: string | undefined, text: string): void {
  if (file === undefined || !/^\w[\w.-]*(\/\w[\w.-]*)?$/.test(file)) return;
  mkdirSync(dirname(join(work, file)), { recursive: true });
  writeFileSync(join(work, file), text);
}

