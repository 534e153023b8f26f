// Picking up forwarding where an earlier run of the listener stopped.
import { readEventLog, loggedForwardItem, type BadLine } from './event-log.js';
import { ForwardCursor, type ForwardCursorOptions } from './forward-cursor.js';
import type { ForwardItem } from './forwarder.js';

export interface ResumePlan {
  cursor: ForwardCursor;
  /** Per target, the logged events it has not had yet, in log order. */
  pending: Map<string, ForwardItem[]>;
  /** Unreadable lines among those (skipped: the listener never acknowledged a line it could not write whole). */
  bad: BadLine[];
  /** Targets whose cursor pointed past the end of the log (replaced or truncated): they start at its end. */
  reset: string[];
}

/**
 * Opens the cursor of `logPath` (whose length is `logSize` before new events are appended) and
 * reads, for each target, the events past its cursor.
 */
export async function planResume(logPath: string, logSize: number, targets: string[], options: ForwardCursorOptions = {}): Promise<ResumePlan> {
  const cursor = await ForwardCursor.open(logPath, targets, logSize, options);
  const reset: string[] = [];
  for (const target of targets) {
    if (cursor.offset(target) > logSize) {
      reset.push(target);
      cursor.advance(target, logSize);
    }
  }
  const from = Math.min(...targets.map((target) => cursor.offset(target)));
  const pending = new Map<string, ForwardItem[]>(targets.map((target) => [target, []]));
  if (from >= logSize) return { cursor, pending, bad: [], reset };
  const log = await readEventLog(logPath, { from, to: logSize });
  for (const event of log.events) {
    const item = loggedForwardItem(event);
    for (const target of targets) if (event.end > cursor.offset(target)) pending.get(target)?.push(item);
  }
  return { cursor, pending, bad: log.bad, reset };
}
