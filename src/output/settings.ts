import { UsageError } from '../errors.js';
import { decideTerminal, type Terminal } from './terminal.js';

export type { Terminal } from './terminal.js';

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

/** One decision about formats, colour and interactivity, from flags and the terminal's decisions (terminal.ts). */
export function decideOutput(flags: OutputFlags, env: NodeJS.ProcessEnv, terminal: Terminal): OutputSettings {
  if (flags.json && flags.jsonl) throw new UsageError('choose one of --json and --jsonl');
  if (flags.jq !== undefined && flags.jq.trim() === '') throw new UsageError('--jq needs an expression', 'e.g. --jq .id or --jq \'.[] | select(.status == "failed") | .id\'');
  const machine = Boolean(flags.json || flags.jsonl || flags.jq !== undefined);
  const decided = decideTerminal(env, terminal);
  const format: Format = flags.json || (flags.jq !== undefined && !flags.jsonl) ? 'json' : flags.jsonl ? 'jsonl' : terminal.stdoutIsTTY || flags.table ? 'table' : 'plain';

  const color = decided.colour('stdout') && flags.color !== false && !machine;

  const fields = flags.fields
    ?.split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (flags.fields !== undefined && !fields?.length) throw new UsageError('--fields needs a comma-separated list of field names');

  return {
    format,
    color,
    interactive: decided.interactive,
    stdoutIsTTY: terminal.stdoutIsTTY,
    quiet: Boolean(flags.quiet),
    fields,
    jq: flags.jq,
    // `terminal.columns` is the launcher's live reading of stdout's width (a getter).
    get width() {
      return decided.width;
    },
  };
}
