/**
 * The one owner of terminal decisions (colour, width, TTY, pager, spinner, progress, prompts), as
 * gh's IOStreams is: every other module asks a `TerminalDecisions` built from the environment and
 * the launcher's facts about the streams, instead of reading NO_COLOR, TERM, CI or isTTY itself.
 * Flags (--no-color, --json, --quiet) are the caller's to add on top: they are not terminal facts.
 */

/** What the launcher knows of the streams (bin/agentctl.js; buffers in tests). Read live: a resize changes `columns`. */
export interface Terminal {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  columns?: number;
  /** The terminal's height (long help goes through the pager). */
  rows?: number;
}

export type StreamName = 'stdout' | 'stderr';

export interface TerminalDecisions {
  /** The facts these decisions come from. */
  readonly facts: Terminal;
  /** CI is set (and not "false" or "0"): nobody is at the keyboard. */
  readonly ci: boolean;
  /** TERM=dumb: no colour, no redraws. */
  readonly dumb: boolean;
  /**
   * ANSI colour on a stream, before flags: on a terminal unless TERM=dumb; FORCE_COLOR (not "0" or
   * "false") forces it on anywhere; NO_COLOR (set, not empty, as no-color.org says) always wins.
   */
  colour(stream: StreamName): boolean;
  /** Width for tables and live views: the terminal's, else a valid $COLUMNS, else 100. Read again each time. */
  readonly width: number;
  /** Width help is wrapped to on a stream: the terminal's; undefined off a terminal (commander's default, 80). */
  helpWidth(stream: StreamName): number | undefined;
  /** Spinners and prompts for a person: stdout and stderr are terminals, outside CI, TERM not dumb. */
  readonly interactive: boolean;
  /** A batch's progress line on stderr: stderr is a terminal, outside CI, TERM not dumb. */
  readonly progress: boolean;
  /** Someone can answer a question: stdin and stderr are terminals, outside CI. */
  readonly canAsk: boolean;
  /** Long help may go through a pager: stdout is a terminal that reports its height. */
  readonly pages: boolean;
  /** The terminal's height in rows (0 when unknown). */
  readonly rows: number;
  /** The build's pre-rendered help pages print as commander would: stdout is not a terminal and has no colour. */
  readonly plainHelp: boolean;
}

/** One reading of the environment and the stream facts; `facts` getters are read when asked (a resize). */
export function decideTerminal(env: Record<string, string | undefined>, facts: Terminal): TerminalDecisions {
  const dumb = env.TERM === 'dumb';
  const ci = Boolean(env.CI) && env.CI !== 'false' && env.CI !== '0';
  const isTTY = (stream: StreamName) => (stream === 'stdout' ? facts.stdoutIsTTY : facts.stderrIsTTY);
  const colour = (stream: StreamName): boolean => {
    if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
    const force = env.FORCE_COLOR;
    if (force !== undefined) return force !== '0' && force !== 'false';
    return isTTY(stream) && !dumb;
  };
  return {
    facts,
    ci,
    dumb,
    colour,
    get width() {
      return tableWidth(facts.columns) ?? tableWidth(Number(env.COLUMNS)) ?? 100;
    },
    helpWidth: (stream) => (isTTY(stream) ? facts.columns : undefined),
    get interactive() {
      return facts.stdoutIsTTY && facts.stderrIsTTY && !ci && !dumb;
    },
    get progress() {
      return facts.stderrIsTTY && !ci && !dumb;
    },
    get canAsk() {
      return facts.stdinIsTTY && facts.stderrIsTTY && !ci;
    },
    get pages() {
      return facts.stdoutIsTTY && (facts.rows ?? 0) > 0;
    },
    get rows() {
      return facts.rows ?? 0;
    },
    get plainHelp() {
      return !facts.stdoutIsTTY && !colour('stdout');
    },
  };
}

const built = new WeakMap<object, TerminalDecisions>();

/** The decisions for a run's io, built once per run (per io object). */
export function terminalOf(io: { env: Record<string, string | undefined>; terminal: Terminal }): TerminalDecisions {
  let decisions = built.get(io);
  if (!decisions) built.set(io, (decisions = decideTerminal(io.env, io.terminal)));
  return decisions;
}

/** A usable width: a terminal (or $COLUMNS) that reports 0 or a tiny width says nothing useful. */
function tableWidth(columns: number | undefined): number | undefined {
  return columns !== undefined && Number.isInteger(columns) && columns > 20 ? columns : undefined;
}
