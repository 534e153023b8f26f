import { appendFile, writeFile } from 'node:fs/promises';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { RULES, notARule } from '../../conformance/rules.js';
import { ExitCode, UsageError } from '../../errors.js';
import { sanitizeLine } from '../../output/sanitize.js';

interface Options {
  allowWrites: boolean;
  yes: boolean;
  junit?: string;
  ignore: Set<string>;
}

export const command = defineCommand<Options>({
  name: 'conformance',
  summary: 'check a deployment against what agentctl expects: a score per operation and what differs from the emulator',
  options: [
    { flags: '--allow-writes', description: 'also create, change and delete: one browser-use agent, one persistent agent and three tasks, each removed at the end' },
    { flags: '-y, --yes', description: 'with --allow-writes: go ahead without asking (needed off a terminal and in CI)' },
    { flags: '--junit <file>', description: 'also write a JUnit report: one test case per operation' },
    { flags: '--ignore <rule>', description: `accept the differences of a rule, or a known difference's id (repeatable): ${RULES.map((rule) => rule.id).join(', ')}`, repeatable: true },
  ],
  notes:
    'Runs each operation against the deployment of your profile (its key, timeouts and retries) and\n' +
    'against a fresh emulator in this process, checks each answer against what the service\'s code\n' +
    "answers (the status, agentctl's schema) and names what differs from the emulator, by the rules of\n" +
    '`agentctl emulator check`. Read-only unless --allow-writes: lists, gets, ids that do not exist, bad\n' +
    'input the service refuses before it saves anything, schedule previews. With --allow-writes the cap\n' +
    'on creates is printed before the first, and asked about on a terminal; every record is named\n' +
    'agentctl-conformance-<random> (tasks: in the prompt), removed at the end even after Ctrl-C, and\n' +
    "what a stopped run left is removed by the next. --ignore RULE accepts a rule's differences from\n" +
    "the emulator (still listed; the checks against the service's code stay). With\n" +
    '$GITHUB_STEP_SUMMARY set, the report is appended to it as Markdown.',
  examples: [
    'agentctl conformance   # read-only: reads, and bad input that the service refuses',
    'agentctl conformance --profile lab --record cassette.jsonl --json > conformance.json   # read-only; the report and its cassette, to attach to an issue',
    'agentctl conformance --allow-writes --yes --junit conformance.xml   # in CI: creates, then cancels and deletes',
  ],
  exitCodes: {
    ...SERVICE_EXITS,
    0: 'every check passed; nothing differs but what the emulator documents',
    1: 'an answer is not what agentctl expects, or differs from the emulator',
    2: 'bad usage, or --allow-writes not confirmed (nothing created)',
    130: 'interrupted (Ctrl-C): what the run made was removed',
  },
  parse: (input) => {
    const ignore = new Set(input.list('ignore'));
    const wrong = notARule(ignore);
    if (wrong !== undefined) throw new UsageError(`--ignore "${sanitizeLine(wrong)}" is not a rule`, `the rules: ${RULES.map((rule) => rule.id).join(', ')}`);
    return { allowWrites: input.flag('allowWrites'), yes: input.flag('yes'), junit: input.string('junit'), ignore };
  },
  run: (options, ctx) => conformance(options, ctx),
});

async function conformance(options: Options, ctx: Context): Promise<number> {
  const client = await ctx.client();
  const { runConformance } = await import('../../conformance/run.js');
  const report = await import('../../conformance/report.js');
  if (options.allowWrites) {
    const { OPERATIONS, plannedCreates } = await import('../../conformance/operations.js');
    // Said before anything is sent, whatever --quiet says: the user must know what will be made.
    ctx.out.error(`--allow-writes: ${report.capWords(plannedCreates(OPERATIONS))} on ${client.baseUrl}, each cancelled and deleted at the end.`);
    await ctx.confirm(`Create them on ${client.baseUrl}?`, options.yes, 'nothing was created');
  }
  // Ctrl-C stops the operation in flight; the command then cleans up and reports, and the runner waits for it.
  ctx.handlesInterrupt = true;
  const cleaning = () => ctx.out.error('Interrupted: removing what this run made (Ctrl-C again stops at once; the next run removes what is left).');
  if (options.allowWrites) ctx.signal.addEventListener('abort', cleaning, { once: true });
  const progress = ctx.out.settings.interactive && !ctx.out.machine;
  const result = await runConformance({
    service: client,
    allowWrites: options.allowWrites,
    ignore: options.ignore,
    signal: ctx.signal,
    onOperation: progress ? (operation) => ctx.out.info(`${operation.outcome} ${operation.name}`) : undefined,
  });
  ctx.out.answer(result, () => report.reportLines(result).forEach((line) => ctx.out.line(line)));
  if (options.junit !== undefined) await writeOrWarn(ctx, options.junit, report.junitReport(result), writeFile);
  const summary = ctx.env.GITHUB_STEP_SUMMARY;
  if (summary) await writeOrWarn(ctx, summary, report.markdownReport(result), appendFile);
  if (result.interrupted) return ExitCode.interrupted;
  return report.conforms(result) ? ExitCode.ok : ExitCode.serviceError;
}

/** A report file that cannot be written is warned about; the exit code stays the run's. */
async function writeOrWarn(ctx: Context, path: string, text: string, write: (path: string, text: string) => Promise<void>): Promise<void> {
  try {
    await write(path, text);
  } catch (error) {
    ctx.out.warn(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; the report on stdout is whole`);
  }
}
