import { UsageError } from '../errors.js';

export type Format = 'json' | 'jsonl' | 'table' | 'plain';

export interface OutputFlags {
  json?: boolean;
  jsonl?: boolean;
  fields?: string;
  color?: boolean; // commander sets false for --no-color
  quiet?: boolean;
  jq?: string;
  /** A table even off a terminal (the stored `output table`); a machine format still wins. */
  table?: boolean;
}

export interface OutputSettings {
  format: Format;
  /** ANSI colour on stdout. Decided once and handed to chalk and cli-table3 explicitly. */
  color: boolean;
  /** Spinners and prompts: only for a person at a terminal. */
  interactive: boolean;
  /** stdout is a terminal: machine output (JSON, --jq) then gets its control characters escaped. */
  stdoutIsTTY?: boolean;
  quiet: boolean;
  fields?: string[];
  /** A jq expression applied to the JSON output (--jq; implies --json unless --jsonl). */
  jq?: string;
  /**
   * Terminal width for tables, wrapped replies and timeline lines (only meaningful for the table
   * format). Read again each time: a live view (a watch, a follow, a chat) uses the width the
   * terminal has now, after a resize.
   */
  readonly width: number;
}

export interface Terminal {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  columns?: number;
  /** The terminal's height (long help goes through the pager). */
  rows?: number;
}


/** One decision about formats, colour and interactivity, from flags, environment and terminal. */
export function decideOutput(flags: OutputFlags, env: NodeJS.ProcessEnv, terminal: Terminal): OutputSettings {
  if (flags.json && flags.jsonl) throw new UsageError('choose one of --json and --jsonl');
  if (flags.jq !== undefined && flags.jq.trim() === '') throw new UsageError('--jq needs an expression', 'e.g. --jq .id or --jq \'.[] | select(.status == "failed") | .id\'');
  const machine = Boolean(flags.json || flags.jsonl || flags.jq !== undefined);
  const dumb = env.TERM === 'dumb';
  const ci = Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
  const format: Format = flags.json || (flags.jq !== undefined && !flags.jsonl) ? 'json' : flags.jsonl ? 'jsonl' : terminal.stdoutIsTTY || flags.table ? 'table' : 'plain';

  let color = terminal.stdoutIsTTY && !dumb;
  const force = env.FORCE_COLOR;
  if (force !== undefined) color = force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') color = false;
  if (flags.color === false || machine) color = false;

  const fields = flags.fields
    ?.split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (flags.fields !== undefined && !fields?.length) throw new UsageError('--fields needs a comma-separated list of field names');

  return {
    format,
    color,
    interactive: terminal.stdoutIsTTY && terminal.stderrIsTTY && !ci && !dumb,
    stdoutIsTTY: terminal.stdoutIsTTY,
    quiet: Boolean(flags.quiet),
    fields,
    jq: flags.jq,
    // `terminal.columns` is the launcher's live reading of stdout's width (a getter).
    get width() {
      return tableWidth(terminal.columns) ?? tableWidth(Number(env.COLUMNS)) ?? 100;
    },
  };
}

/** A usable table width: a terminal (or $COLUMNS) that reports 0 or a tiny width says nothing useful. */
function tableWidth(columns: number | undefined): number | undefined {
  return columns !== undefined && Number.isInteger(columns) && columns > 20 ? columns : undefined;
}
