import { StringDecoder } from 'node:string_decoder';
import type { MessageChannel, Worker } from 'node:worker_threads';
import { jqError } from './jq.js';
import type { JqWorker } from './jq-thread.js';

// `--jq` over a stream of documents (--jsonl lists, run-batch's outcome lines, followed events):
// one run of jq's main() reads them all, as `... --jsonl | jq` does. jq-wasm runs main() once per
// call (~2 ms of set-up each: jq compiles its builtins every run, and each run leaks part of the
// instance's memory, so instances must be renewed), and cannot wait for input that has not come:
// its stdin is a synchronous callback. So the run is on a worker thread, whose reads of stdin wait
// for the next documents (jq-worker.ts); it filters beside the main thread, as a piped jq would,
// and Ctrl-C and SIGTERM reach the main thread while it runs.

/** Where jq's output goes: stdout text (the promise resolves once written) and stderr text. */
export interface JqSink {
  stdout(text: string): Promise<void>;
  stderr(text: string): void;
}

/** Indices into the shared Int32Array both threads use (jq-worker.ts by number) to signal each other. */
export const SLOT = {
  /** Bumped by the main thread after each input message it posts. */
  inputPosted: 0,
  /** Input messages jq's reads have taken (the main thread waits on it to bound what is in flight). */
  inputTaken: 1,
  /** Where the worker's next output record goes in the ring (written by the worker). */
  write: 2,
  /** Where the main thread's next read in the ring starts (written by the main thread). */
  read: 3,
  /** Bumped on every change the main thread may wait for: output, jq's end. */
  events: 4,
  /** jq's exit status + 1 once main() has returned (0 while it runs). */
  status: 5,
  /** 1 once jq first reads its input: the expression compiled. */
  reading: 6,
  /** 1 while the main thread waits on `events`: only then is it woken (a wake per line costs). */
  waiting: 7,
} as const;

/** Atomics.waitAsync (Node 16+; this project's TypeScript lib predates it). */
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number, timeout?: number): { async: boolean; value: unknown } }).waitAsync;
/** Input messages (a page of documents, an outcome line) in flight before `send` waits. */
const IN_FLIGHT = 16;
/** How often the reader looks at the ring unwoken: jq's output waits at most this long (jq-worker.ts, bump). */
const LOOK_MS = 20;

export class JqStream {
  private readonly worker: Worker;
  private readonly port: MessageChannel['port1'];
  private readonly ctl: Int32Array;
  private readonly ring: Uint8Array;
  private readonly decoders = { 1: new StringDecoder('utf8'), 2: new StringDecoder('utf8') };
  private posted = 0;
  /**
   * jq's messages for documents it failed on. jq exits with the status of the last document only
   * (an error in another one still exits 0), where a script needs to know of any.
   */
  errors = 0;
  private crashed?: Error;
  /** jq's exit status once its run ended and all it wrote was delivered. */
  readonly done: Promise<number>;
  /** What jq wrote on stderr before it read any input (a compile error), kept for `compiled`. */
  private early = '';
  private settle?: (error?: Error) => void;
  /** Resolves once the expression compiled (jq reads its input), rejects with jq's compile error. */
  readonly compiled = new Promise<void>((resolve, reject) => {
    this.settle = (error) => (error ? reject(error) : resolve());
  });

  constructor(
    private readonly expression: string,
    compact: boolean,
    private readonly sink: JqSink,
    /** jq's thread, not yet running jq (started ahead by the runner, or just now). */
    started: JqWorker,
  ) {
    ({ worker: this.worker, port: this.port, ctl: this.ctl, ring: this.ring } = started);
    started.run(['-M', '-r', '--unbuffered', ...(compact ? ['-c'] : []), expression]);
    const fail = (error: Error) => {
      this.crashed ??= error;
      Atomics.add(this.ctl, SLOT.events, 1);
      Atomics.notify(this.ctl, SLOT.events);
      Atomics.notify(this.ctl, SLOT.inputTaken);
      // (Its exit wakes the waits: the worker may be gone without a word.)
    };
    void started.gone.then(fail);
    this.done = this.read().finally(() => void this.worker.terminate());
    this.done.then(
      () => this.settle?.(new Error('jq ended before reading')),
      (error: Error) => this.settle?.(error),
    );
    this.compiled.catch(() => {}); // awaited only where the expression is checked
  }

  /** Whether jq has ended (`halt`, `halt_error`, or a failure): documents sent now are not read. */
  get ended(): boolean {
    return Atomics.load(this.ctl, SLOT.status) !== 0 || this.crashed !== undefined;
  }

  /** Documents for jq's input (JSON text, a line each); waits while jq is far behind. */
  async send(text: string): Promise<void> {
    if (this.ended) return;
    this.port.postMessage(Buffer.from(text));
    this.posted++;
    Atomics.add(this.ctl, SLOT.inputPosted, 1);
    Atomics.notify(this.ctl, SLOT.inputPosted);
    for (;;) {
      const taken = Atomics.load(this.ctl, SLOT.inputTaken);
      if (this.posted - taken <= IN_FLIGHT || this.ended) return;
      const wait = waitAsync(this.ctl, SLOT.inputTaken, taken);
      if (wait.async) await wait.value;
    }
  }

  /** The end of jq's input; resolves with jq's exit status once everything it wrote is out. */
  end(): Promise<number> {
    if (!this.ended) {
      this.port.postMessage(null);
      Atomics.add(this.ctl, SLOT.inputPosted, 1);
      Atomics.notify(this.ctl, SLOT.inputPosted);
    }
    return this.done;
  }

  /** Stops jq at once (the command failed or was interrupted). */
  stop(): void {
    void this.worker.terminate();
  }

  /** Delivers the ring's records as they come, until jq's status is set and the ring is empty. */
  private async read(): Promise<number> {
    let read = 0;
    for (;;) {
      const events = Atomics.load(this.ctl, SLOT.events);
      const write = Atomics.load(this.ctl, SLOT.write);
      if (write !== read) {
        read = await this.deliver(read, write);
        Atomics.store(this.ctl, SLOT.read, read);
        Atomics.notify(this.ctl, SLOT.read);
        continue;
      }
      if (this.settle && Atomics.load(this.ctl, SLOT.reading) === 1) {
        this.settle();
        this.settle = undefined;
      }
      const status = Atomics.load(this.ctl, SLOT.status);
      if (status !== 0) {
        if (this.settle && status - 1 === 3) this.settle(jqError(this.expression, new Error(this.early)));
        return status - 1;
      }
      if (this.crashed) throw this.crashed;
      // Set before the last look: a record written after it finds the flag and wakes this wait.
      Atomics.store(this.ctl, SLOT.waiting, 1);
      if (Atomics.load(this.ctl, SLOT.events) !== events) continue;
      const wait = waitAsync(this.ctl, SLOT.events, events, LOOK_MS);
      if (wait.async) await wait.value;
      // One turn of the event loop first: the lines jq writes meanwhile go out in the same write.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The records between `from` and `to`, stdout's text written (and drained) before the next. jq
   * writes a record per line (--unbuffered): their bytes are gathered into one buffer and decoded
   * once per run of stdout records (a copy and a decode per line cost ~5 us, 0.5 s over 100,000).
   */
  private async deliver(from: number, to: number): Promise<number> {
    const size = this.ring.length;
    const gathered = Buffer.allocUnsafe((to - from + size) % size);
    let [at, filled] = [from, 0];
    const flush = async () => {
      const text = this.decoders[1].write(gathered.subarray(0, filled));
      filled = 0;
      if (text) await this.sink.stdout(text);
    };
    while (at !== to) {
      const fd = this.ring[at];
      const head = (i: number) => this.ring[(at + i) % size]!;
      const length = (head(1) | (head(2) << 8) | (head(3) << 16) | (head(4) << 24)) >>> 0;
      const start = (at + 5) % size;
      at = (start + length) % size;
      if (fd === 1) {
        filled += this.copy(start, length, gathered, filled);
        continue;
      }
      if (filled > 0) await flush();
      const data = Buffer.allocUnsafe(length);
      this.copy(start, length, data, 0);
      const decoded = this.decoders[2].write(data);
      if (Atomics.load(this.ctl, SLOT.reading) === 0) this.early += decoded;
      else {
        this.errors += decoded.match(/^jq: error/gm)?.length ?? 0;
        this.sink.stderr(decoded);
      }
    }
    if (filled > 0) await flush();
    return at;
  }

  /** Copies `length` bytes of the ring from `at`, across its end, into `out` at `offset`; returns `length`. */
  private copy(at: number, length: number, out: Uint8Array, offset: number): number {
    const first = Math.min(length, this.ring.length - at);
    out.set(this.ring.subarray(at, at + first), offset);
    if (first < length) out.set(this.ring.subarray(0, length - first), offset + first);
    return length;
  }
}
