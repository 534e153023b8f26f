import type { jqFactory } from './jq-glue.js';

// The body of the worker thread that runs jq over a stream of documents (jq-stream.ts starts it).
// It runs as the source text of `jqWorker` (Function.prototype.toString), so it uses nothing of
// this module's scope: only its globals, the require it is handed and the functions it is given
// as source (the output ring, jq's loading: jq-glue.ts). Its numbers index the shared Int32Array
// by SLOT's names (jq-stream.ts).

/**
 * jq's main() runs once, reading its standard input as a stream: the worker's `fd_read` takes the
 * documents the main thread posts, and waits (Atomics.wait: this thread only) when none is there;
 * `fd_write` puts what jq writes to stdout and stderr into a shared ring, framed as
 * [fd][length:u32le][bytes], which the main thread reads as it fills. So jq's own input loop runs:
 * `input`, `inputs`, `halt` and an error in one document behave as they do in jq. `load` is the
 * worker's own require (a bundler rewrites calls of `require` in this source).
 */
export function jqWorker(load: (id: string) => unknown, rings: typeof outputRing, loadJq: typeof jqFactory): void {
  const threads = load('node:worker_threads') as typeof import('node:worker_threads');
  const { port, control, ring, glue } = threads.workerData;
  // jq's arguments (the expression) come once the command line is read: the worker boots and
  // evaluates jq's loader meanwhile, but compiles jq's WebAssembly only then, once the main thread
  // has set V8's baseline-only flag (set earlier, it would also reject the code cache of the
  // command's own JavaScript, which loads meanwhile: V8 checks its flags against the cache's).
  const args = new Promise<string[]>((resolve) => threads.parentPort!.once('message', resolve));
  const ctl = new Int32Array(control);
  const { bump, record } = rings(ctl, new Uint8Array(ring));
  const wasm = (globalThis as unknown as { WebAssembly: { Memory: new () => unknown; instantiate(binary: unknown, imports: unknown): Promise<{ instance: { exports: object } }> } }).WebAssembly;
  let memory: { buffer: ArrayBuffer } | undefined;
  let [input, at, ended] = [new Uint8Array(0) as Uint8Array, 0, false];
  let taken = 0;
  /** The next input message, waiting for one when none has come. */
  const next = () => {
    const seen = Atomics.load(ctl, 0);
    const received = threads.receiveMessageOnPort(port);
    if (received === undefined) {
      bump(true);
      Atomics.wait(ctl, 0, seen);
      return;
    }
    Atomics.store(ctl, 1, ++taken);
    Atomics.notify(ctl, 1);
    [input, at, ended] = received.message === null ? [input, at, true] : [received.message as Uint8Array, 0, false];
  };
  let seen = { buffer: undefined as unknown, heap: new Uint8Array(0), view: new DataView(new ArrayBuffer(0)) };
  // Anew once the memory grew (its buffer is then another).
  const views = () => (seen.buffer === memory!.buffer ? seen : (seen = { buffer: memory!.buffer, heap: new Uint8Array(memory!.buffer), view: new DataView(memory!.buffer) }));
  const fdRead = (original: (...a: number[]) => number) => (fd: number, iov: number, count: number, done: number) => {
    if (fd !== 0) return original(fd, iov, count, done);
    if (Atomics.exchange(ctl, 6, 1) === 0) bump(true);
    while (at >= input.length && !ended) next();
    const { heap, view } = views();
    let total = 0;
    for (let i = 0; i < count && at < input.length; i++) {
      const length = Math.min(view.getUint32(iov + i * 8 + 4, true), input.length - at);
      heap.set(input.subarray(at, at + length), view.getUint32(iov + i * 8, true));
      at += length;
      total += length;
    }
    view.setUint32(done, total, true);
    return 0;
  };
  const fdWrite = (original: (...a: number[]) => number) => (fd: number, iov: number, count: number, done: number) => {
    if (fd !== 1 && fd !== 2) return original(fd, iov, count, done);
    const { heap, view } = views();
    let total = 0;
    for (let i = 0, start = 0, length = 0; i < count; i++, total += length) {
      [start, length] = [view.getUint32(iov + i * 8, true), view.getUint32(iov + i * 8 + 4, true)];
      if (length > 0) record(fd, heap.subarray(start, start + length)); // copied into the ring at once
    }
    view.setUint32(done, total, true);
    return 0;
  };
  // The Emscripten loader hands its imports to WebAssembly.instantiate: jq's reads of fd 0 and
  // writes to fds 1 and 2 come here instead of its byte-at-a-time devices.
  const instantiate = wasm.instantiate.bind(wasm);
  wasm.instantiate = async (binary: unknown, imports: unknown) => {
    const env = (imports as { a: Record<string, (...a: number[]) => number> }).a;
    const names = Object.keys(env);
    const read = names.find((name) => env[name]!.name === '_fd_read');
    const written = names.find((name) => env[name]!.name === '_fd_write');
    if (read === undefined || written === undefined) throw new Error('jq-wasm: fd_read or fd_write not found among its imports');
    env[read] = fdRead(env[read]!);
    env[written] = fdWrite(env[written]!);
    const result = await instantiate(binary, imports);
    memory = Object.values(result.instance.exports).find((value) => value instanceof wasm.Memory) as { buffer: ArrayBuffer };
    return result;
  };
  const factory = loadJq<{ callMain(args: string[]): number }>(glue, load);
  void args.then(async (argv) => {
    const jq = await factory();
    const status = jq.callMain(argv);
    Atomics.store(ctl, 5, status + 1);
    bump(true);
    Atomics.notify(ctl, 1);
  });
}

/** The worker's side of the output ring (part of the worker's source, as `jqWorker` is). */
export function outputRing(ctl: Int32Array, bytes: Uint8Array) {
  const size = bytes.length;
  let [write, unsent] = [0, 0];
  /**
   * Wakes the main thread for output (once 16 KB are waiting, or before this thread waits) or jq's
   * end; a wake per line cost more than jq's work on it. The main thread also looks every 20 ms.
   */
  const bump = (now: boolean) => {
    if (!now && unsent < 16_384) return;
    unsent = 0;
    Atomics.add(ctl, 4, 1);
    if (Atomics.exchange(ctl, 7, 0) === 1) Atomics.notify(ctl, 4);
  };
  const put = (data: Uint8Array, from: number) => {
    const first = Math.min(data.length, size - from);
    bytes.set(data.subarray(0, first), from);
    bytes.set(data.subarray(first), 0);
    return (from + data.length) % size;
  };
  /** One output record into the ring, waiting while the main thread has not read enough of it. */
  const record = (fd: number, data: Uint8Array) => {
    for (let start = 0; start < data.length; start += size >> 1) {
      const part = data.subarray(start, start + (size >> 1));
      const need = part.length + 5;
      for (;;) {
        const read = Atomics.load(ctl, 3);
        if ((read - write - 1 + size) % size >= need) break;
        bump(true);
        Atomics.wait(ctl, 3, read);
      }
      if (write + need <= size) {
        // The usual case, in place: a header and a copy, no allocation.
        [bytes[write], bytes[write + 1], bytes[write + 2], bytes[write + 3], bytes[write + 4]] = [fd, part.length & 255, (part.length >> 8) & 255, (part.length >> 16) & 255, part.length >>> 24];
        bytes.set(part, write + 5);
        write = (write + need) % size;
      } else write = put(part, put(new Uint8Array([fd, part.length & 255, (part.length >> 8) & 255, (part.length >> 16) & 255, part.length >>> 24]), write));
      Atomics.store(ctl, 2, write);
      unsent += need;
      bump(false);
    }
  };
  return { bump, record };
}
