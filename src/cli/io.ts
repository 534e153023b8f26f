import type { Clock } from '../contract/clock.js';
import type { Terminal } from '../output/settings.js';

/** A stream agentctl writes to: process.stdout in real life, a buffer in tests. */
export interface OutStream {
  /** Text, or bytes (a downloaded file written to stdout as it is). */
  write(chunk: string | Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
  /** Set on a terminal. */
  columns?: number;
  /** A terminal's stream says 'resize' when its window changes size (SIGWINCH); a live view redraws. */
  on?(event: 'resize', listener: () => void): unknown;
  removeListener?(event: 'resize', listener: () => void): unknown;
}

/**
 * Everything a run of agentctl takes from the outside world. `bin/agentctl.js` builds it from
 * `process`; tests build it from buffers, so a command runs as a function call.
 */
export interface IO {
  stdin: NodeJS.ReadableStream;
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  terminal: Terminal;
  clock: Clock;
  /** The folder that holds config.json ($XDG_CONFIG_HOME/agentctl). */
  configDir: string;
  /** Aborted on Ctrl-C or SIGTERM: every wait, request and listener stops through it. */
  signal: AbortSignal;
  /**
   * At a terminal: shows text through the user's pager ($PAGER, else `less -FRX`), resolving when
   * it quits. Help longer than the terminal goes through it; nothing else does, nor anything piped.
   */
  pager?: (text: string) => Promise<void>;
  /** `node/20.x`, for the User-Agent. */
  runtime: string;
  /** This process, as a lock names its holder (a batch's ledger lock). */
  process: ProcessFacts;
}

export interface ProcessFacts {
  pid: number;
  /** Whether a process of this host with this id still runs (a lock left by one that does not is stale). */
  isRunning(pid: number): boolean;
  /**
   * Where this process's ids mean something: two processes of one host with the same pid space see
   * the same processes under the same ids (Linux: the boot id and the pid namespace). Undefined
   * where that cannot be told: then no other process's id is trusted.
   */
  pidSpace?: string;
  /** When the process with this id started (Linux: /proc/PID/stat), to tell a reused id apart; undefined where unknown. */
  startTime?(pid: number): string | undefined;
  /** Runs `cleanup` (synchronous) however the process ends, a second Ctrl-C too; the answer unregisters it. */
  atExit?(cleanup: () => void): () => void;
  /**
   * Runs work that holds the main thread until it ends (a --jq filter's WebAssembly) so that Ctrl-C
   * and SIGTERM still end the process meanwhile (at once, by Node's default): no handler of ours can
   * run before such work lets go. Without it (tests), the work just runs.
   */
  holdingThread?<T>(run: () => Promise<T>): Promise<T>;
}
