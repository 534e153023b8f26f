import type { ChalkInstance } from 'chalk';
import { UsageError } from '../errors.js';
import { makeChalk } from './color.js';
import { humanCell, pickFields, plainCell, toJson, wrapText } from './format.js';
import { sanitizeForTerminal, sanitizeLine, sanitizeMessage, sanitizeText } from './sanitize.js';
import type { Hold } from './jq.js';
import type { JqStream } from './jq-stream.js';
import { pathText, plainPath } from './jq-path.js';
import type { JqWorker } from './jq-thread.js';
import type { Format, OutputSettings } from './settings.js';
import { columnsFor, plainRow, renderTable, type Column } from './table.js';

/** Where output goes: process.stdout/stderr in real life, buffers in tests. */
export interface Streams {
  stdout: { write(text: string): boolean; once(event: 'drain', listener: () => void): unknown };
  stderr: { write(text: string): boolean };
}

/** A labelled line of a detail view. */
export interface DetailRow {
  label: string;
  value: unknown;
  paint?: (text: string) => string;
  /** A heading the row is grouped under on a terminal (piped output stays `label<TAB>value`). */
  section?: string;
  /** Long text (a charter): on a terminal, a block under its label, wrapped to the width, line breaks kept. */
  block?: boolean;
}

/**
 * Everything a command prints goes through here, so the output rules hold everywhere: results on
 * stdout, everything else on stderr, JSON untouched, colour decided once.
 */
export class Output {
  readonly chalk: ChalkInstance;
  /** Output still being filtered by --jq; `flush()` waits for it (and reports its errors). */
  private pending: Promise<void> = Promise.resolve();
  private jqFailure?: unknown;
  /** The one run of jq that filters this command's JSON lines (--jsonl, outcome and event lines). */
  private jqStream?: Promise<JqStream>;
  /** jq's worker, when the runner started it ahead (--jsonl --jq): the stream runs jq in it. */
  jqWorker?: JqWorker;
  /** A --jq that only reads keys (jq-path.ts): lines answered here, until a document needs jq. */
  private jqKeys?: readonly string[];
  /** Documents answered so: jq, taking over, is given as many empty lines first (its errors say `<stdin>:LINE`). */
  private answeredLines = 0;
  private fieldsChecked = false;
  /** While `measure` runs: everything written, stdout and stderr. */
  private recorded?: string;

  constructor(
    readonly settings: OutputSettings,
    private readonly streams: Streams,
    /** Holds the main thread for a --jq filter's run, Ctrl-C and SIGTERM still ending it (io.process.holdingThread). */
    private readonly hold?: Hold,
  ) {
    this.chalk = makeChalk(settings.color);
    this.jqKeys = settings.jq === undefined ? undefined : plainPath(settings.jq);
  }

  get machine(): boolean {
    return this.settings.format === 'json' || this.settings.format === 'jsonl';
  }

  /** Checks a --jq expression before the command sends anything. */
  async ready(): Promise<void> {
    if (this.settings.jq === undefined) return;
    if (this.settings.format === 'jsonl') {
      // A plain path is jq by its form (jq starts only if a document needs it); any other, the
      // stream's own run of jq checks: loading jq on this thread as well would cost as much again.
      if (this.jqKeys !== undefined) return;
      this.jqStream = this.startJq(this.settings.jq);
      await (await this.jqStream).compiled;
      return;
    }
    const { checkJq } = await import('./jq.js');
    await checkJq(this.settings.jq, this.hold);
  }

  /** Waits until everything is written (--jq filters asynchronously); throws a --jq failure. */
  async flush(): Promise<void> {
    await this.pending;
    await this.endJqStream();
    const failure = this.jqFailure;
    this.jqFailure = undefined;
    if (failure !== undefined) throw failure;
  }

  /** One JSON document (or one compact line with --jsonl), --fields applied, then --jq. */
  json(value: unknown): void {
    this.jsonDocument(value, this.settings.format === 'jsonl');
  }

  /** One compact JSON line whatever the format (streams: batch outcomes, followed events, --watch refreshes). */
  jsonLine(value: unknown): void {
    this.jsonDocument(value, true);
  }

  private jsonDocument(value: unknown, compact: boolean): void {
    const fields = this.settings.fields;
    this.checkFields(Array.isArray(value) ? value : [value]);
    const kept = Array.isArray(value) ? value.map((item) => pickFields(item, fields)) : pickFields(value, fields);
    const expression = this.settings.jq;
    if (expression !== undefined && compact) {
      // A line of a stream: jq reads it as the next of its inputs.
      this.toJq([kept]);
      return;
    }
    if (expression !== undefined) {
      // Kept as a value, never a rejected promise left waiting: flush() reports it.
      this.pending = this.pending.then(async () => {
        if (this.jqFailure !== undefined) return;
        try {
          const { runJq } = await import('./jq.js');
          this.write(this.machineText(await runJq(expression, kept, compact, this.hold)));
        } catch (error) {
          this.jqFailure = error;
        }
      });
      return;
    }
    this.write(this.machineText(`${toJson(kept, compact ? undefined : 2)}\n`));
  }

  /** Documents for the stream's run of jq (as JSON lines), which starts with the first of them. */
  private toJq(documents: unknown[]): void {
    this.pending = this.pending.then(async () => {
      if (this.jqFailure !== undefined) return;
      try {
        const rest = await this.answerPlainPath(documents);
        if (rest.length === 0) return;
        this.jqStream ??= this.startJq(this.settings.jq!);
        const skipped = '\n'.repeat(this.answeredLines);
        this.answeredLines = 0;
        await (await this.jqStream).send(skipped + rest.map((document) => `${toJson(document)}\n`).join(''));
      } catch (error) {
        this.jqFailure = error;
      }
    });
  }

  /**
   * Writes what a plain-path --jq prints for the documents, up to the first one jq must answer
   * (from which on every document goes to jq); returns the documents left for jq.
   */
  private async answerPlainPath(documents: unknown[]): Promise<unknown[]> {
    const keys = this.jqKeys;
    if (keys === undefined) return documents;
    let text = '';
    let answered = 0;
    for (const document of documents) {
      const line = pathText(keys, document);
      if (line === undefined) {
        this.jqKeys = undefined;
        break;
      }
      text += `${line}\n`;
      answered++;
    }
    this.answeredLines += answered;
    if (text) await this.writeAsync(this.machineText(text));
    return answered === documents.length ? [] : documents.slice(answered);
  }

  private async startJq(expression: string): Promise<JqStream> {
    const { JqStream } = await import('./jq-stream.js');
    const thread = this.jqWorker ?? new (await import('./jq-thread.js')).JqWorker();
    this.jqWorker = undefined;
    const sink = {
      stdout: (text: string) => this.writeAsync(this.machineText(text)),
      // jq's messages (an error in one document, halt_error's text) may quote the data.
      stderr: (text: string) => void this.streams.stderr.write(sanitizeText(text)),
    };
    return new JqStream(expression, true, sink, thread);
  }

  /** The end of the stream's input: waits for jq to finish; a status other than 0 fails the command (exit 2). */
  private async endJqStream(): Promise<void> {
    const started = this.jqStream;
    if (started === undefined) return;
    this.jqStream = undefined;
    try {
      const stream = await started;
      const status = await stream.end();
      const expression = `--jq ${JSON.stringify(this.settings.jq)}`;
      if (stream.errors > 0) this.jqFailure ??= new UsageError(`${expression}: jq failed on ${stream.errors === 1 ? 'a document' : `${stream.errors} documents`} (above)`);
      else if (status !== 0) this.jqFailure ??= new UsageError(`${expression}: jq ended with status ${status} (its message is above)`);
    } catch (error) {
      this.jqFailure ??= error;
    }
  }

  /**
   * JSON or --jq output as it is written: exact when piped (scripts read it); on a terminal, with
   * control characters (OSC 52, OSC 8, a title) and bidirectional overrides as JSON escapes.
   */
  private machineText(text: string): string {
    return this.settings.stdoutIsTTY ? sanitizeForTerminal(text) : text;
  }

  /**
   * --fields must name fields the records have: an unknown one is a usage error that lists them
   * (checked on the first records seen; an empty answer cannot tell).
   */
  checkFields(records: unknown[], known: string[] = []): void {
    const fields = this.settings.fields;
    if (!fields || this.fieldsChecked) return;
    const available = new Set(known);
    for (const record of records) {
      if (typeof record === 'object' && record !== null && !Array.isArray(record)) for (const key of Object.keys(record)) available.add(key);
    }
    if (records.length === 0 || available.size === 0) return;
    this.fieldsChecked = true;
    const unknown = fields.filter((field) => !available.has(field));
    if (unknown.length === 0) return;
    throw new UsageError(
      `unknown field${unknown.length === 1 ? '' : 's'} in --fields: ${unknown.join(', ')}`,
      `fields here: ${[...available].join(', ')}`,
    );
  }

  /**
   * A command's answer: the JSON record with --json/--jsonl, otherwise what `forPeople` prints
   * (a line, a success message). Commands hand over both and never branch on the format themselves.
   */
  answer(record: unknown, forPeople: () => void): void {
    if (this.machine) this.json(record);
    else forPeople();
  }

  /** A note for a person reading a table (an item count, where more pages are); nothing in other formats. */
  tableNote(message: string): void {
    if (this.settings.format === 'table') this.info(this.chalk.dim(message));
  }

  /** A single record: JSON as returned, or a labelled view for people, or `label<TAB>value` lines. */
  record(record: unknown, rows: DetailRow[]): void {
    if (this.machine) return this.json(record);
    const fields = this.settings.fields;
    this.checkFields([record], rows.map((row) => row.label));
    const shown = fields
      ? fields.map((field) => rows.find((row) => row.label === field) ?? { label: field, value: (record as Record<string, unknown>)[field] })
      : rows;
    if (this.settings.format === 'plain') {
      this.write(shown.map((row) => `${row.label}\t${sanitizeLine(plainCell(row.value))}\n`).join(''));
      return;
    }
    const width = Math.max(...shown.map((row) => row.label.length));
    const grouped = !fields && shown.some((row) => row.section);
    const lines: string[] = [];
    let section: string | undefined;
    for (const row of shown) {
      if (grouped && row.section !== section) {
        section = row.section;
        if (lines.length > 0) lines.push('');
        if (section) lines.push(this.chalk.bold.underline(section));
      }
      if (row.block && typeof row.value === 'string') {
        // As `gh issue view` shows a body: the section heading (or the label) names it, the text follows.
        if (!grouped) lines.push(this.chalk.bold(row.label));
        const indent = grouped ? '  ' : '';
        lines.push(...wrapText(sanitizeText(row.value), this.settings.width - indent.length).map((line) => (line ? indent + line : '')));
        continue;
      }
      const text = sanitizeLine(humanCell(row.value));
      const label = grouped ? `  ${this.chalk.bold(row.label.padEnd(width))}` : this.chalk.bold(row.label.padEnd(width));
      lines.push(`${label}  ${row.paint ? row.paint(text) : text}`);
    }
    this.write(`${lines.join('\n')}\n`);
  }

  /** A list already in memory (one page). */
  list<T>(items: T[], columns: Column<T>[]): void {
    if (this.settings.format === 'json') return this.json(items);
    this.checkFields(items, columns.map((column) => column.key));
    if (this.settings.format === 'jsonl') {
      for (const item of items) this.json(item);
      return;
    }
    const shown = columnsFor(columns, this.settings.fields);
    if (this.settings.format === 'plain') {
      this.write(items.map((item) => `${plainRow(shown, item)}\n`).join(''));
      return;
    }
    if (items.length === 0) {
      this.info('No items.');
      return;
    }
    let shortIds: string[] = [];
    this.write(`${renderTable(shown, items, this.settings.width, (s) => this.chalk.bold(s), (headers) => (shortIds = headers))}\n`);
    // A short id cannot be pasted into a command: say where the whole ones are.
    if (shortIds.length > 0) this.info(this.chalk.dim(`${shortIds.join(', ')} cut to 8 characters to fit the terminal; piped or with --json, whole.`));
  }

  /**
   * A list of any length (--all), a page's items at a time: JSON, JSON lines and tab-separated rows
   * are written as they come, with back-pressure, so memory stays bounded. A terminal table needs every row for its widths,
   * and a person reads it, so only that case collects. Returns how many items were written.
   * `format` overrides the user's choice for commands whose output is always JSON (`api`).
   */
  async stream<T>(pages: AsyncIterable<T[]>, columns: Column<T>[], format = this.settings.format): Promise<number> {
    let count = 0;
    if (format === 'table' || (this.settings.jq !== undefined && format === 'json')) {
      // A table sizes its columns on every row; jq needs the whole document: collect, then print.
      const all: T[] = [];
      for await (const items of pages) for (const item of items) all.push(item);
      if (format === 'table') this.list(all, columns);
      else {
        this.json(all);
        await this.flush();
      }
      return all.length;
    }
    const shown = columnsFor(columns, this.settings.fields);
    const known = columns.map((column) => column.key);
    const fields = this.settings.fields;
    // Items are written in batches of about 64 KB: one write per item cost a system call each.
    let batch = format === 'json' ? '[' : '';
    try {
      for await (const items of pages) {
        this.checkFields(items, known);
        if (format === 'jsonl' && this.settings.jq !== undefined) {
          // A page at a time to jq, waiting while it is behind; `halt` ends the listing too.
          this.toJq(items.map((item) => pickFields(item, fields)));
          await this.pending;
          if (this.jqFailure !== undefined || (this.jqStream && (await this.jqStream).ended)) break;
        } else batch += this.machineText(textOf(items, format, shown, fields, count));
        count += items.length;
        if (batch.length >= 65_536) {
          await this.writeAsync(batch);
          batch = '';
        }
      }
      if (format === 'json') batch += count === 0 ? ']\n' : '\n]\n';
    } catch (error) {
      // A failure before the first item (an unknown --fields name) leaves stdout empty; one after
      // items still closes the JSON array, so stdout stays one valid document.
      if (count === 0) batch = '';
      else if (format === 'json') batch += '\n]\n';
      throw error;
    } finally {
      // What was read is printed, also when the list fails part-way.
      if (batch) await this.writeAsync(batch);
    }
    return count;
  }

  /** A bare line on stdout (an id, a URL, a result text). */
  line(text: string): void {
    // Machine output (a JSON line) keeps the exact text when piped; people get control characters escaped.
    this.write(`${this.machine ? this.machineText(text) : sanitizeMessage(text, this.settings.color)}\n`);
  }

  /**
   * Runs `draw` and returns what it wrote to stdout and stderr (still written): a live view measures
   * its frame, to move back over it and draw the next one in its place.
   */
  measure(draw: () => void): string {
    this.recorded = '';
    try {
      draw();
      return this.recorded;
    } finally {
      this.recorded = undefined;
    }
  }

  /** Progress and hints on stderr; silent with --quiet. */
  info(message: string): void {
    if (!this.settings.quiet) this.toStderr(`${this.clean(message)}\n`);
  }

  success(message: string): void {
    this.info(`${this.chalk.green('✓')} ${message}`);
  }

  warn(message: string): void {
    if (!this.settings.quiet) this.toStderr(`${this.chalk.yellow('warning:')} ${this.clean(message)}\n`);
  }

  /** Errors always reach stderr, --quiet or not. */
  error(message: string): void {
    this.toStderr(`${this.clean(message)}\n`);
  }

  /** Messages may quote the service: only agentctl's own colours survive, other controls are escaped. */
  private clean(message: string): string {
    return sanitizeMessage(message, this.settings.color);
  }

  private write(text: string): void {
    if (this.recorded !== undefined) this.recorded += text;
    this.streams.stdout.write(text);
  }

  private toStderr(text: string): void {
    if (this.recorded !== undefined) this.recorded += text;
    this.streams.stderr.write(text);
  }

  private writeAsync(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.streams.stdout.write(text)) resolve();
      else this.streams.stdout.once('drain', resolve);
    });
  }
}

/**
 * A page of a streamed list as text (`before`: items already written). A plain function, not part
 * of the async loop in `stream`: V8 optimises its loop far better there (~10 ms less CPU for 10,000 tasks).
 */
function textOf<T>(items: T[], format: Format, shown: Column<T>[], fields: string[] | undefined, before: number): string {
  let text = '';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (format === 'plain') text += `${plainRow(shown, item)}\n`;
    else if (format === 'jsonl') text += `${toJson(pickFields(item, fields))}\n`;
    else text += `${before + i === 0 ? '\n' : ',\n'}${indent(toJson(pickFields(item, fields), 2))}`;
  }
  return text;
}

function indent(json: string): string {
  return json.replace(/^/gm, '  ');
}
