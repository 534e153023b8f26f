// The durable half of the forward queue: per --forward-to target, how far into the --output log
// events have been forwarded. Events past the cursor are in the log (fsynced before their 200), so
// a listener stopped by Ctrl-C, a crash or SIGKILL resends them on its next start.
import { readFile } from 'node:fs/promises';
import { writeFileAtomically } from '../contract/atomic-write.js';

/** The cursor file of a log: `events.jsonl` -> `events.jsonl.forwarded`. */
export function cursorPath(logPath: string): string {
  return `${logPath}.forwarded`;
}

interface CursorDocument {
  about: string;
  /** Target URL -> byte offset in the log: every event before it has been forwarded (or refused). */
  forwarded: Record<string, number>;
}

export interface ForwardCursorOptions {
  /** Writes are gathered: at most one every this many ms (default 100). */
  intervalMs?: number;
  /** A failed write (the cursor then lags: events may be sent again after a restart, never lost). */
  onError?: (error: Error) => void;
}

/**
 * Where forwarding stands, kept in a small JSON file beside the log and rewritten atomically as
 * events are delivered (gathered, at most every `intervalMs`). A crash can only leave it behind
 * the truth, so a restart may send an event a second time but never skips one.
 */
export class ForwardCursor {
  private timer?: NodeJS.Timeout;
  private writing?: Promise<void>;
  private dirty = false;

  private constructor(
    readonly path: string,
    private readonly offsets: Map<string, number>,
    private readonly options: ForwardCursorOptions,
  ) {}

  /**
   * Reads the cursor of `logPath`. A target it does not know starts at `logSize` (it was not a
   * target when the earlier events came); the file is written at once, so an event acknowledged
   * from now on is covered even if the process dies before its first delivery.
   */
  static async open(logPath: string, targets: string[], logSize: number, options: ForwardCursorOptions = {}): Promise<ForwardCursor> {
    const path = cursorPath(logPath);
    const offsets = await readCursor(path);
    for (const target of targets) if (!offsets.has(target)) offsets.set(target, logSize);
    const cursor = new ForwardCursor(path, offsets, options);
    cursor.dirty = true;
    await cursor.flush();
    return cursor;
  }

  /** The offset from which `target` still has events to get. */
  offset(target: string): number {
    return this.offsets.get(target) ?? 0;
  }

  /** Moves a target's cursor (to just past an event it now has); written soon. */
  advance(target: string, offset: number): void {
    this.offsets.set(target, offset);
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.options.intervalMs ?? 100);
  }

  /** Writes what changed now (and waits for a write under way). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing;
    if (!this.dirty) return;
    this.dirty = false;
    const document: CursorDocument = {
      about: 'agentctl webhook-listen: per --forward-to target, the byte offset in the --output log up to which events were forwarded',
      forwarded: Object.fromEntries(this.offsets),
    };
    this.writing = writeFileAtomically(this.path, `${JSON.stringify(document, null, 2)}\n`)
      .catch((error: Error) => this.options.onError?.(error))
      .finally(() => (this.writing = undefined));
    await this.writing;
  }
}

async function readCursor(path: string): Promise<Map<string, number>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  let document: Partial<CursorDocument>;
  try {
    document = JSON.parse(text) as Partial<CursorDocument>;
  } catch {
    throw new Error(`${path} is not valid JSON; delete it to start forwarding from the end of the log`);
  }
  const offsets = new Map<string, number>();
  for (const [target, offset] of Object.entries(document.forwarded ?? {})) {
    if (Number.isSafeInteger(offset) && offset >= 0) offsets.set(target, offset);
  }
  return offsets;
}
