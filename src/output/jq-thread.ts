import { MessageChannel, Worker } from 'node:worker_threads';
import { baselineWasmOnly, jqFactory, jqGlue } from './jq-glue.js';
import { jqWorker, outputRing } from './jq-worker.js';

// The thread that runs jq over a stream (jq-stream.ts), in a module of its own that needs none of
// agentctl's other code: the runner starts it first thing for `--jsonl --jq` (src/cli/main.ts),
// before the rest of the command's code loads.

/** The ring jq's output goes through to the main thread (jq-worker.ts, outputRing). */
const RING_BYTES = 1 << 20;

/**
 * jq's worker thread, started before its expression is known: it boots and loads jq (~60-90 ms
 * on a busy 2-core machine) while the main thread loads the command and reads the config, and
 * runs jq's main() once a JqStream hands it the expression. Until then it does not hold the
 * process open; `release` ends it if no stream took it (the command failed first).
 */
export class JqWorker {
  readonly worker: Worker;
  readonly port: MessageChannel['port1'];
  readonly ctl = new Int32Array(new SharedArrayBuffer(8 * 4));
  readonly ring = new Uint8Array(new SharedArrayBuffer(RING_BYTES));
  /** Resolves with why the worker is gone: its error, or its exit (wherever jq's run stands). */
  readonly gone: Promise<Error>;
  private taken = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(`(${jqWorker.toString()})(require, ${outputRing.toString()}, ${jqFactory.toString()})`, {
      eval: true,
      workerData: { port: port2, control: this.ctl.buffer, ring: this.ring.buffer, glue: jqGlue() },
      transferList: [port2],
      // jq's own limits apply; the worker's heap holds the loader and the messages in flight.
      stdout: true,
      stderr: true,
    });
    this.worker.unref();
    this.gone = new Promise((resolve) => {
      this.worker.once('error', resolve);
      this.worker.once('exit', (code) => resolve(new Error(`jq's worker ended (${code}) before jq did`)));
    });
  }

  /** Starts jq's main() with these arguments; the worker now keeps the process open until it ends. */
  run(args: string[]): void {
    if (this.taken) throw new Error('jq worker already running');
    this.taken = true;
    baselineWasmOnly(); // before the worker compiles jq's WebAssembly
    this.worker.ref();
    this.worker.postMessage(args);
  }

  /** Ends the worker unless a stream runs jq in it. */
  release(): void {
    if (!this.taken) void this.worker.terminate();
  }
}
