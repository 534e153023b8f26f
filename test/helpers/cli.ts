import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { execa, type Options } from 'execa';
import type { Clock } from '../../src/contract/clock.js';
import { systemClock } from '../../src/contract/clock.js';
import { tempDir } from './temp.js';
import { main } from '../../src/cli/main.js';
import type { Terminal } from '../../src/output/settings.js';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'agentctl.js');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Variables on top of a clean environment (no AGENTCTL_*, no CI, no colour forcing). */
  env?: Record<string, string | undefined>;
  /** Text fed to stdin; without it stdin is empty. */
  input?: string;
  /** A config home of the test's own (a fresh temporary one by default). */
  configHome?: string;
  /** A hang net, at least HANG_MS: the run is stopped (Ctrl-C, or the process killed) only after it. */
  timeoutMs?: number;
  /** Terminal facts for an in-process run (default: nothing is a terminal, as in a pipe). */
  terminal?: Partial<Terminal>;
  /** A clock for an in-process run (default: the real one). */
  clock?: Clock;
  /** Aborting it is Ctrl-C for an in-process run. */
  signal?: AbortSignal;
  /** Called with everything printed so far, after each write to stdout (in-process runs). */
  onStdout?: (text: string) => void;
  /** The same for stderr. */
  onStderr?: (text: string) => void;
}

/**
 * How long a run may take before it is taken for hung and stopped: a net, never a judge of speed. A
 * busy machine (2 cores, another suite beside this one) runs a 1,000-task batch in far more than the
 * 20 s this once was, and the run was Ctrl-C'd mid-way (exit 130). Below the tests' own limit.
 */
const HANG_MS = 150_000;
const hangNet = (options: CliOptions) => Math.max(options.timeoutMs ?? 0, HANG_MS);

/** Whether a process with this id runs (as bin/agentctl.js tells it). */
export function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export { tempDir };

/** A stream that keeps what is written to it. */
class Capture {
  text = '';
  constructor(
    readonly columns?: number,
    private readonly onWrite?: (text: string) => void,
  ) {}
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.onWrite?.(this.text);
    return true;
  }
  once(): this {
    return this;
  }
  // What readline and ora may ask of an output stream.
  on(): this {
    return this;
  }
  removeListener(): this {
    return this;
  }
}

/**
 * V8's code cache for the processes tests start (bin/compile-cache.js), shared by them all as one
 * user's runs share theirs: with a fresh one each, every process compiled dist/ from scratch and
 * wrote a cache no run read again (~30 ms of CPU each). Caches of other builds are removed by it.
 */
const SHARED_CODE_CACHE = join(tmpdir(), 'agentctl-test-code-cache');

/** The environment of a process a test starts: PATH, a home of its own, the shared code cache, then `extra`. */
export function childEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: SHARED_CODE_CACHE, ...extra };
}

/** Ends a process a test started and waits for it to be gone (it may still write files as it ends). */
export async function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
}

function cleanEnv(options: CliOptions, configHome: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...childEnv(configHome), ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env;
}

/**
 * Runs agentctl as a function call in this process, through the same `main(argv, io)` as
 * bin/agentctl.js, with captured streams and a clean, isolated environment.
 */
export async function agentctl(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const configHome = options.configHome ?? tempDir('agentctl-config-');
  const env = cleanEnv(options, configHome);
  const terminal: Terminal = { stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, ...options.terminal };
  const stdout = new Capture(terminal.columns, options.onStdout);
  const stderr = new Capture(terminal.columns, options.onStderr);
  const interrupt = new AbortController();
  options.signal?.addEventListener('abort', () => interrupt.abort(options.signal?.reason ?? 'SIGINT'), { once: true });
  const timer = setTimeout(() => interrupt.abort('SIGINT'), hangNet(options));
  try {
    const exitCode = await main(args, {
      stdin: Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]),
      stdout,
      stderr,
      env,
      terminal,
      clock: options.clock ?? systemClock,
      configDir: join(configHome, 'agentctl'),
      signal: interrupt.signal,
      runtime: `node/${process.versions.node}`,
      process: { pid: process.pid, isRunning: (pid) => pidRunning(pid) },
    });
    return { exitCode, stdout: stdout.text, stderr: stderr.text };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the built `bin/agentctl.js` as a process: for what only a process shows (signals, TTYs, packaging). */
export async function spawnAgentctl(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const configHome = options.configHome ?? tempDir('agentctl-config-');
  const execaOptions: Options = {
    reject: false,
    extendEnv: false,
    env: cleanEnv(options, configHome),
    timeout: hangNet(options),
    stripFinalNewline: false,
    ...(options.input === undefined ? { stdin: 'ignore' } : { input: options.input }),
  };
  const result = await execa(process.execPath, [BIN, ...args], execaOptions);
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Runs agentctl against a given service, with the key in the environment (never in argv). */
export function against(baseUrl: string, apiKey = 'emulator-key') {
  return (args: string[], options: CliOptions = {}) =>
    agentctl(args, { ...options, env: { AGENTCTL_BASE_URL: baseUrl, AGENTCTL_API_KEY: apiKey, ...options.env } });
}
