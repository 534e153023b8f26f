// A power cut while the listener writes leaves the log's last line torn: cut short before its
// newline, or (an older agentctl ended it with one at restart) unparsable. It was never fsynced, so
// never acknowledged: the service sends that event again. Left in place, the next event would run
// into it, or follow a line no reader can parse, so at restart it is moved to `LOG.torn` (kept, not
// lost) and the log is cut back to its last whole line.
import { open, type FileHandle } from 'node:fs/promises';

/** The log a torn line is moved to: `events.jsonl` -> `events.jsonl.torn`. */
export function tornPath(logPath: string): string {
  return `${logPath}.torn`;
}

/** What was set aside. */
export interface TornLine {
  /** Its length in bytes. */
  bytes: number;
  /** Where it was moved (appended, one torn line per line). */
  path: string;
}

/** A line longer than this is no line the listener writes (a body is at most 64 MiB): the file is not its log. */
const MAX_TORN_BYTES = 128 * 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * Moves a torn last line of the log open in `handle` (of length `size`) to `LOG.torn` and cuts the
 * log back to the line before it. Resolves with the log's new length and what was moved.
 */
export async function setAsideTornLine(handle: FileHandle, logPath: string, size: number): Promise<{ size: number; torn?: TornLine }> {
  if (size === 0) return { size };
  const lastByte = Buffer.alloc(1);
  await handle.read(lastByte, 0, 1, size - 1);
  const terminated = lastByte[0] === 0x0a;
  const start = await lineStartBefore(handle, terminated ? size - 1 : size);
  const length = size - start;
  if (length > MAX_TORN_BYTES) {
    if (terminated) return { size }; // a whole line, too long to check: a reader will judge it
    throw new Error(`it ends with ${length} bytes and no line break: not a log webhook-listen wrote`);
  }
  const line = Buffer.alloc(length);
  await readFully(handle, line, start);
  if (terminated && parses(line)) return { size };
  // Only a line of the listener's own is cut: any other is a file that is not its log, left as it is.
  if (!ours(line)) {
    if (terminated) return { size }; // a reader names the line
    throw new Error('its last line is not one webhook-listen wrote, and has no line break: not a webhook log');
  }
  const path = tornPath(logPath);
  // Kept first, then cut: a crash between the two leaves the bytes in both places, never in none.
  const aside = await open(path, 'a', 0o600);
  try {
    await aside.write(terminated ? line : Buffer.concat([line, Buffer.from('\n')]));
    await aside.sync();
  } finally {
    await aside.close();
  }
  await handle.truncate(start);
  await handle.sync();
  return { size: start, torn: { bytes: terminated ? length - 1 : length, path } };
}

/** How every line of the log starts (eventLine): a torn one starts the same way, or is zeros a power cut left. */
const LINE_START = '{"received_at":';

function ours(line: Buffer): boolean {
  const text = line.toString('utf8').replace(/^[\0\s]+|[\0\s]+$/g, '');
  return text === '' || text.startsWith(LINE_START) || LINE_START.startsWith(text);
}

/** Blank, or JSON: a line a reader takes (it judges the record itself). */
function parses(line: Buffer): boolean {
  const text = line.toString('utf8').trim();
  if (text === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The offset just past the last line break before `end` (0 when there is none). */
async function lineStartBefore(handle: FileHandle, end: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK);
  for (let to = end; to > 0 && end - to <= MAX_TORN_BYTES; ) {
    const from = Math.max(0, to - CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, to - from, from);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at !== -1) return from + at + 1;
    to = from;
  }
  return 0;
}

async function readFully(handle: FileHandle, buffer: Buffer, position: number): Promise<void> {
  for (let done = 0; done < buffer.length; ) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, position + done);
    if (bytesRead === 0) throw new Error('changed while it was read');
    done += bytesRead;
  }
}
