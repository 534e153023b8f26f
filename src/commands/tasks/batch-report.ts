// `tasks batch-report`: one report for a batch run as shards, joined from their outputs and ledgers.
import { appendFile, writeFile } from 'node:fs/promises';
import type { Context } from '../../cli/context.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { LIMITS } from '../../contract/validate.js';
import { UsageError } from '../../errors.js';
import { batchLines, openSource } from '../../batch/input.js';
import { BatchMerge, githubAnnotation, isFailure, junitCase, junitDocument, markdownSummary, parseRecord, statusCode, type LineReport } from '../../batch/merge.js';
import { BatchReport } from '../../batch/report.js';

interface ReportOptions {
  files: string[];
  input?: string;
  junit?: string;
  annotations?: 'github' | 'none';
}

/** Problem lines shown in the step summary, and `::error` annotations (GitHub shows 10 a step). */
const MAX_SUMMARY_ROWS = 20;
const MAX_ANNOTATIONS = 10;

export const command = defineCommand({
  name: 'batch-report',
  summary: "one report for a batch run as shards: joins their JSON lines and/or ledgers, each line once",
  args: [{ name: '<outputs...>', description: "the shards' outputs (run-batch's stdout) and/or ledgers" }],
  options: [
    { flags: '--input <file>', description: 'the tasks file the shards ran: every task line is then reported, a line no shard reported as missing' },
    { flags: '--junit <file>', description: 'also write JUnit XML: one testcase per line, failed/unknown/missing lines as failures' },
    { flags: '--annotations <kind>', choices: ['github', 'none'], description: 'github: ::error annotations and a step summary (default when GITHUB_ACTIONS=true); none' },
  ],
  notes: `Output: one JSON line per line of the batch, in line order, as run-batch prints them: the most
final word of any output or ledger about the line wins (a shard rerun reports its lines again).
"missing": no input names the line (with --input); "duplicated": the line has more than one task
(created twice), with "ids". A summary goes to stderr.

Under GitHub Actions (or --annotations github): a Markdown summary is appended to
$GITHUB_STEP_SUMMARY and each line that did not end well gets an ::error annotation (the first 10).
What the lines say shows as code in the summary, and as one line without control characters in
annotations; a summary or JUnit file that cannot be written is warned about (the exit code stays).
The exit code is that of the worst line's outcome.`,
  exitCodes: {
    0: 'every line completed (or created, for a run without --follow)',
    1: 'a line rejected, of unknown outcome, missing or duplicated',
    2: 'an input that cannot be read',
    5: 'a line failed',
    6: 'a line cancelled',
  },
  examples: [
    'agentctl tasks batch-report shard-*/results.jsonl --input tasks.jsonl --junit batch.xml',
    'agentctl tasks batch-report tasks.jsonl.shard-*.ledger --input tasks.jsonl',
  ],
  parse: (input: ParseInput): ReportOptions => {
    const annotations = input.string('annotations') as ReportOptions['annotations']; // one of its choices
    const files = input.args(0);
    if (files.length === 0) throw new UsageError("give the shards' outputs or ledgers", 'agentctl tasks batch-report shard-1.jsonl shard-2.jsonl --input tasks.jsonl');
    return { files, input: input.string('input'), junit: input.string('junit'), annotations };
  },
  run: batchReport,
});

async function batchReport(options: ReportOptions, ctx: Context): Promise<number> {
  const merge = new BatchMerge();
  for (const file of options.files) await readShardFile(file, merge, ctx);
  let expected: Array<{ line: number; key?: string }> | undefined;
  if (options.input !== undefined) {
    expected = [];
    for await (const task of batchLines(await openSource(options.input, () => ctx.readStdin()), undefined)) expected.push({ line: task.line, key: task.key });
  } else {
    ctx.out.info('Without --input FILE a line no shard reported cannot be named as missing.');
  }

  const lines = merge.report(expected);
  const report = new BatchReport(ctx, expected?.length ?? merge.size, 'lines');
  const github = (options.annotations ?? (ctx.env.GITHUB_ACTIONS === 'true' ? 'github' : 'none')) === 'github';
  const junit: string[] = [];
  const problems: LineReport[] = [];
  let failures = 0;
  for (const line of lines) {
    report.emit(line, statusCode(line.status));
    if (options.junit !== undefined) junit.push(junitCase(line));
    if (!isFailure(line.status)) continue;
    failures++;
    if (problems.length < MAX_SUMMARY_ROWS) problems.push(line);
    if (github && failures <= MAX_ANNOTATIONS) ctx.io.stderr.write(githubAnnotation(line, options.input));
  }
  report.flush();
  if (options.junit !== undefined) await writeReport(ctx, options.junit, junitDocument(junit.join(''), report.total, failures), writeFile);
  const summaryFile = ctx.env.GITHUB_STEP_SUMMARY;
  if (github && summaryFile) await writeReport(ctx, summaryFile, markdownSummary(report.counts, report.total, problems, failures - problems.length), appendFile);
  const more = github && failures > MAX_ANNOTATIONS ? [`(${failures - MAX_ANNOTATIONS} more failed lines without an annotation: see the report)`] : [];
  report.summary(more);
  return report.code;
}

/**
 * The longest line of a shard's output (characters): a task's result is at most what a response may
 * be (64 MB by default), twice over for what JSON escapes in it.
 */
const MAX_REPORT_LINE = 2 * LIMITS.bodyMb * 1024 * 1024;

/** Reads one shard's output or ledger into the merge; a record torn by a killed shard (its last line) is left out. */
async function readShardFile(file: string, merge: BatchMerge, ctx: Context): Promise<void> {
  const source = await openSource(file, () => ctx.readStdin(), MAX_REPORT_LINE);
  let number = 0;
  let torn: string | undefined;
  for await (const texts of source.lines()) {
    for (const text of texts) {
      number++;
      if (torn !== undefined) throw new UsageError(torn);
      let record: ReturnType<typeof parseRecord>;
      try {
        record = parseRecord(text, `${file}:${number}`);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        torn = `${file}:${number}: not JSON: ${error.message}`;
        continue;
      }
      if (record && 'outcome' in record) merge.addOutcome(record.outcome);
      else if (record) merge.addLedgerRecord(record.entry);
    }
  }
  if (torn !== undefined) ctx.out.warn(`${file}: its last line is cut off (the shard was stopped while writing it); the rest is read.`);
}

/**
 * Writes the JUnit file or the step summary; one that cannot be written is warned about, and the
 * exit code stays the batch's: a CI step would else fail (or pass) for the report, not for its tasks.
 */
async function writeReport(ctx: Context, path: string, text: string, write: (path: string, text: string) => Promise<void>): Promise<void> {
  try {
    await write(path, text);
  } catch (error) {
    ctx.out.warn(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; the report on stdout is whole, the exit code is the batch's`);
  }
}
