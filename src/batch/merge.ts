// `tasks batch-report`: what became of each line of a batch run as shards, joined from the shards'
// JSON lines (run-batch's stdout) and/or their ledgers. A line may be reported many times (a shard
// rerun prints its lines again, a ledger lists what its output says); one task per line is its
// answer, the most final word about it wins. A line with two tasks was created twice.
import { oneLine, strippedLine } from '../contract/text.js';
import { UsageError, ExitCode } from '../errors.js';
import type { LedgerEntry } from './ledger.js';
import type { TaskOutcome } from './report.js';
import { junitCase as junitTestcase, junitDocument as junitXml } from '../output/junit.js';

/** What the report says of one line: run-batch's outcome, or `missing` / `duplicated`. */
export interface LineReport extends TaskOutcome {
  line: number;
  /** Every task created for the line, when more than one. */
  ids?: string[];
}

/** How final a status is: a record that says more replaces one that says less. */
const FINALITY: Record<string, number> = { rejected: 0, unknown: 1, sending: 1, created: 2, reused: 2, error: 3, completed: 4, failed: 4, cancelled: 4 };

/** The exit code of a line's status (run-batch's codes; missing and duplicated lines are 1, like unknown). */
export function statusCode(status: string): number {
  switch (status) {
    case 'completed':
    case 'created':
    case 'reused':
      return ExitCode.ok;
    case 'failed':
      return ExitCode.taskFailed;
    case 'cancelled':
      return ExitCode.taskCancelled;
    default:
      return ExitCode.serviceError;
  }
}

export function isFailure(status: string): boolean {
  return statusCode(status) !== ExitCode.ok;
}

/** Joins records of lines, from any number of outputs and ledgers, in any order. */
export class BatchMerge {
  private readonly lines = new Map<number, LineReport>();
  /** What a line was before its latest ledger `sending` (what its `unsent` puts back). */
  private readonly beforeSending = new Map<number, LineReport | undefined>();

  get size(): number {
    return this.lines.size;
  }

  /** One line of a shard's output (run-batch's stdout). */
  addOutcome(outcome: TaskOutcome & { line: number }): void {
    this.add({ ...outcome, key: outcome.key ?? null });
  }

  /** One record of a ledger: what the run knew when it stopped (a `sending` never answered is unknown). */
  addLedgerRecord(entry: LedgerEntry): void {
    if (entry.state === 'unsent') {
      // Takes back the line's `sending`: its create never went out, so the line is what it was
      // before that `sending` (unknown, if an earlier run was killed while creating it).
      const known = this.lines.get(entry.line);
      if (known?.status === 'unknown' && !known.id) {
        const before = this.beforeSending.get(entry.line);
        if (before) this.lines.set(entry.line, before);
        else this.lines.delete(entry.line);
      }
      return;
    }
    if (entry.state === 'sending') {
      const known = this.lines.get(entry.line);
      this.beforeSending.set(entry.line, known && { ...known });
    }
    const status = entry.state === 'sending' ? 'unknown' : entry.state;
    this.add({ line: entry.line, key: null, id: entry.id ?? null, status, result: null, error: entry.error ?? (entry.state === 'sending' ? 'the run stopped while creating this task' : null) });
  }

  private add(next: LineReport): void {
    const known = this.lines.get(next.line);
    if (!known) return void this.lines.set(next.line, next);
    if (next.id && known.id && next.id !== known.id) {
      const ids = known.ids ?? [known.id];
      if (!ids.includes(next.id)) ids.push(next.id);
      known.ids = ids;
      return;
    }
    if ((FINALITY[next.status] ?? 0) > (FINALITY[known.status] ?? 0) || (next.id && !known.id)) {
      this.lines.set(next.line, { ...next, key: next.key ?? known.key, ids: known.ids });
    } else if (known.key === null && next.key) {
      known.key = next.key;
    }
  }

  /**
   * Every line in order: those of `expected` (the input's task lines) each exactly once, a line no
   * shard reported as `missing`; without `expected`, the lines reported.
   */
  *report(expected?: Iterable<{ line: number; key?: string }>): Iterable<LineReport> {
    const order = expected ? [...expected] : [...this.lines.keys()].sort((a, b) => a - b).map((line) => ({ line, key: undefined }));
    if (expected) {
      const known = new Set(order.map((task) => task.line));
      const stray = [...this.lines.keys()].filter((line) => !known.has(line));
      if (stray.length > 0) throw new UsageError(`the outputs report line${stray.length === 1 ? '' : 's'} ${stray.slice(0, 10).join(', ')}, not a task of the input`, 'give the input file the batch ran (--input FILE)');
    }
    for (const { line, key } of order) {
      const found = this.lines.get(line);
      if (!found) {
        yield { line, key: key ?? null, id: null, status: 'missing', result: null, error: 'no shard reported this line: its shard did not run, or its output was lost' };
      } else if (found.ids) {
        yield { line, key: found.key ?? key ?? null, id: found.id, ids: found.ids, status: 'duplicated', result: null, error: `created ${found.ids.length} times: ${found.ids.join(', ')}` };
      } else {
        yield { ...found, key: found.key ?? key ?? null };
      }
    }
  }
}

/** Reads the lines of one input of the report: a shard's JSON lines or a ledger, told apart by their fields. */
export function parseRecord(text: string, where: string): { outcome: TaskOutcome & { line: number } } | { entry: LedgerEntry } | undefined {
  if (text.trim() === '') return undefined;
  const value = JSON.parse(text) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || typeof value.line !== 'number') {
    throw new UsageError(`${where}: not a line of run-batch's output or ledger (no "line")`, 'give the JSON lines run-batch printed, or its ledger; run it without --jq/--fields');
  }
  if (!Number.isSafeInteger(value.line) || value.line < 1) throw new UsageError(`${where}: "line" must be a line number (1 or more), got ${value.line}`);
  const notText = ['key', 'id', 'error'].find((field) => value[field] !== undefined && value[field] !== null && typeof value[field] !== 'string');
  if (notText !== undefined) throw new UsageError(`${where}: "${notText}" must be a string or null`);
  if (typeof value.status === 'string') return { outcome: value as unknown as TaskOutcome & { line: number } };
  if (typeof value.state === 'string' && typeof value.hash === 'string') return { entry: value as unknown as LedgerEntry };
  throw new UsageError(`${where}: not a line of run-batch's output or ledger (no "status" or "state")`);
}

// ---- What CI systems show ----

export function lineName(line: LineReport): string {
  return line.key ? `line ${line.line} (${line.key})` : `line ${line.line}`;
}

/** One JUnit testcase per line; a line that did not end well is a failure with its status and error. */
export function junitCase(line: LineReport): string {
  if (!isFailure(line.status)) return junitTestcase('agentctl.batch', lineName(line));
  const message = `${line.status}${line.error ? `: ${line.error}` : ''}`;
  return junitTestcase('agentctl.batch', lineName(line), { type: line.status, message, detail: line.id ? `task ${line.id}\n${message}` : message });
}

export function junitDocument(cases: string, tests: number, failures: number): string {
  return junitXml('agentctl tasks batch', cases, tests, failures);
}

/**
 * A GitHub Actions workflow command's text: what would end it or start another line escaped, and
 * control characters dropped (the log would show a colour code or a cursor move as it is).
 */
const ghData = (text: string) => strippedLine(text).replace(/%/g, '%25');
const ghProperty = (text: string) => ghData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** An `::error` annotation for a line that did not end well, pointing at the input's line when known. */
export function githubAnnotation(line: LineReport, input?: string): string {
  const where = input ? `file=${ghProperty(input)},line=${line.line},` : '';
  return `::error ${where}title=${ghProperty(`Batch ${lineName(line)}: ${line.status}`)}::${ghData(line.error ?? line.status)}\n`;
}

/**
 * Text of the service or of a report file in the step summary: a code span, so none of it is read as
 * Markdown or HTML (an image fetched whenever the summary is viewed, a link, a tag, a heading that says
 * all passed). One line; a pipe escaped for the table; fenced with one backtick more than the longest
 * run of backticks inside (a code span has no escapes of its own).
 */
export function markdownCode(text: string): string {
  const line = oneLine(text).replace(/\|/g, '\\|');
  if (line === '') return '';
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** The Markdown of the step summary: counts by status, and the first lines that need a look. */
export function markdownSummary(counts: Map<string, number>, total: number, problems: LineReport[], more: number): string {
  const rows = [...counts].map(([status, count]) => `| ${markdownCode(status)} | ${count} |`);
  const parts = [`### agentctl batch: ${total} line${total === 1 ? '' : 's'}`, '', '| status | lines |', '|---|---|', ...rows, ''];
  if (problems.length > 0) {
    parts.push('| line | status | task | error |', '|---|---|---|---|');
    const cell = markdownCode;
    for (const line of problems) parts.push(`| ${cell(lineName(line))} | ${cell(line.status)} | ${cell(line.id ?? '')} | ${cell(line.error ?? '')} |`);
    if (more > 0) parts.push('', `... and ${more} more (see the report's JSON lines).`);
    parts.push('');
  }
  return `${parts.join('\n')}\n`;
}
