import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setAsideTornLine, type TornLine } from './torn-line.js';

/** The part of a file handle the writer needs (a fake in unit tests). */
export interface AppendTarget {
  write(buffer: Buffer, offset: number, length: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
  close(): Promise<void>;
  /** Cuts a failed batch's partial write off again (best effort). */
  truncate?(length: number): Promise<void>;
}

interface Pending {
  text: string;
  resolve: (end: number) => void;
  reject: (error: Error) => void;
}

/**
 * Appends JSON lines to a file and resolves each `append` only once its line is on disk (written
 * and fsynced), so a 200 sent afterwards never acknowledges an event a crash could lose.
 *
 * Group commit: lines that arrive while a write+fsync is under way are written together by the
 * next one, so 50 concurrent senders cost a few fsyncs rather than fifty. Lines land in the file in
 * the order `append` was called, and the promises resolve in that order, each with the byte offset
 * just past its line (where the durable forward cursor moves once the event is forwarded).
 */
export class JsonLinesFile {
  private pending: Pending[] = [];
  private flushing = false;
  private closed = false;
  private idle: Array<() => void> = [];
  /** Lines durably written so far. */
  written = 0;
  /** fsync calls so far (for the bench and tests: group commit at work). */
  syncs = 0;
  /** A torn last line open() found and moved aside (the caller says so). */
  torn?: TornLine;

  constructor(
    private readonly target: AppendTarget,
    readonly path: string,
    /** The file's length when opened: new lines start here. */
    public size = 0,
  ) {}

  /** Opens (creating with mode 0600, as events may carry results) for appending. */
  static async open(path: string): Promise<JsonLinesFile> {
    const handle = await open(path, 'a+', 0o600);
    let aside: Awaited<ReturnType<typeof setAsideTornLine>>;
    try {
      // A line cut short by a crash (never acknowledged) must not run into the next one, nor stay
      // for a reader to stumble on: it goes to FILE.torn.
      aside = await setAsideTornLine(handle, path, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
    // A file created just now also needs its directory entry on disk, or a crash could lose the
    // whole file with the events fsynced into it. (Not possible on every platform: best effort.)
    try {
      const folder = await open(dirname(path), 'r');
      await folder.sync().finally(() => folder.close());
    } catch {
      // e.g. Windows cannot open a folder as a file
    }
    const file = new JsonLinesFile(handle, path, aside.size);
    file.torn = aside.torn;
    return file;
  }

  /** Resolves, once the line is on disk, with the byte offset just past it. */
  append(value: unknown): Promise<number> {
    return this.appendLine(JSON.stringify(value));
  }

  /** The same for a line already written as JSON. */
  appendLine(line: string): Promise<number> {
    if (this.closed) return Promise.reject(new Error(`${this.path} is closed`));
    const text = `${line}\n`;
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ text, resolve, reject });
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        const start = this.size;
        try {
          const buffer = Buffer.from(batch.map((item) => item.text).join(''), 'utf8');
          await this.writeAll(buffer);
          await this.target.sync();
          this.syncs++;
          this.written += batch.length;
          this.size = start + buffer.length;
          let end = start;
          for (const item of batch) item.resolve((end += Buffer.byteLength(item.text)));
        } catch (error) {
          // Keep the file (and the offsets of lines to come) as if the batch had never been written.
          await this.target.truncate?.(start).catch(() => undefined);
          const failure = error instanceof Error ? error : new Error(String(error));
          for (const item of batch) item.reject(failure);
        }
      }
    } finally {
      this.flushing = false;
      for (const done of this.idle.splice(0)) done();
    }
  }

  private async writeAll(buffer: Buffer): Promise<void> {
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesWritten } = await this.target.write(buffer, offset, buffer.length - offset);
      if (bytesWritten <= 0) throw new Error(`could not write to ${this.path}`);
      offset += bytesWritten;
    }
  }

  /** Waits for lines already appended, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.flushing || this.pending.length > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    await this.target.close();
  }
}
