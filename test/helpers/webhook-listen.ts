// Helpers for the webhook-listen tests: a long-running agentctl whose output is read as it comes,
// posting to a listener, and free loopback ports. A listener runs in this process (main(argv, io),
// Ctrl-C an abort) unless the test needs what only a process has: a SIGKILL, a real signal.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { BIN, agentctl, childEnv, tempDir } from './cli.js';
import { send } from './http.js';

export interface Running {
  /** stdout lines so far. */
  lines: string[];
  /** stderr so far. */
  stderr: () => string;
  /** Resolves with the exit code (or -1 for a signal). */
  exited: Promise<number>;
  /** Whether it has not ended yet. */
  running: () => boolean;
  /** Ctrl-C (SIGINT) either way; SIGKILL only to a process. */
  kill: (signal: 'SIGINT' | 'SIGKILL') => void;
  /** Waits for the n-th stdout line (0-based); fails if the run ends first. */
  line(index: number): Promise<string>;
  /** Waits until stderr matches; fails if the run ends first. */
  stderrMatches(pattern: RegExp): Promise<string>;
  /** Ends the run if it still goes (for afterEach). */
  stop(): Promise<void>;
}

export type Where = 'in-process' | 'process';

const running = new Set<Running>();

/** What a run printed so far, and waits on it: for what it prints or for its end, never for a time. */
class Output {
  readonly lines: string[] = [];
  stderr = '';
  closed: number | undefined;
  private partial = '';
  private readonly waiting = new Set<() => void>();

  constructor(private readonly args: string[]) {}

  addStdout(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
    this.changed();
  }

  addStderr(text: string): void {
    this.stderr += text;
    this.changed();
  }

  close(code: number): number {
    if (this.partial !== '') this.addStdout('\n');
    this.closed = code;
    this.changed();
    return code;
  }

  until<T>(value: () => T | undefined, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = value();
        if (found === undefined && this.closed === undefined) return;
        this.waiting.delete(check);
        if (found !== undefined) resolve(found);
        else reject(new Error(`agentctl ${this.args.join(' ')} exited (${this.closed}) before ${what}; stderr: ${this.stderr}`));
      };
      this.waiting.add(check);
      check();
    });
  }

  private changed(): void {
    for (const check of [...this.waiting]) check();
  }
}

/** The built CLI as a process, with a clean environment. */
function startProcess(args: string[], env: Record<string, string>, output: Output) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(tempDir('agentctl-config-'), env) });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => output.addStdout(`${line}\n`));
  child.stderr?.on('data', (chunk: Buffer) => output.addStderr(chunk.toString()));
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(output.close(code ?? -1))));
  return { exited, kill: (signal: 'SIGINT' | 'SIGKILL') => void child.kill(signal) };
}

/** The CLI as a function call in this process: Ctrl-C is an abort, as bin/agentctl.js makes of SIGINT. */
function startInProcess(args: string[], env: Record<string, string>, output: Output) {
  const interrupt = new AbortController();
  let stdoutSeen = 0;
  let stderrSeen = 0;
  const exited = agentctl(args, {
    env,
    signal: interrupt.signal,
    onStdout: (text) => output.addStdout(text.slice(stdoutSeen, (stdoutSeen = text.length))),
    onStderr: (text) => output.addStderr(text.slice(stderrSeen, (stderrSeen = text.length))),
  }).then((result) => output.close(result.exitCode));
  const kill = (signal: 'SIGINT' | 'SIGKILL') => {
    if (signal === 'SIGKILL') throw new Error('a SIGKILL needs a process: start it with where = "process"');
    interrupt.abort('SIGINT');
  };
  return { exited, kill };
}

/** Starts agentctl and keeps reading its output. */
export function start(args: string[], env: Record<string, string> = {}, where: Where = 'in-process'): Running {
  const output = new Output(args);
  const { exited, kill } = (where === 'process' ? startProcess : startInProcess)(args, env, output);
  const handle: Running = {
    lines: output.lines,
    stderr: () => output.stderr,
    exited,
    running: () => output.closed === undefined,
    kill,
    line: (index) => output.until(() => output.lines[index], `stdout line ${index + 1}`),
    stderrMatches: (pattern) => output.until(() => (pattern.test(output.stderr) ? output.stderr : undefined), `stderr matched ${pattern}`),
    async stop() {
      if (output.closed === undefined) kill(where === 'process' ? 'SIGKILL' : 'SIGINT');
      await exited;
      running.delete(handle);
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** What a forward target received. */
export interface Relayed {
  body: string;
  ua?: string;
  type?: string;
}

const targets = new Set<Server>();

/** A --forward-to target on 127.0.0.1:`port`: records each request in `received`, answers 204 (once `answer` resolves, if given). */
export async function startTarget(port: number, received: Relayed[], answer?: Promise<unknown>): Promise<void> {
  const target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString(), ua: req.headers['user-agent'], type: req.headers['content-type'] });
      void Promise.resolve(answer).then(() => res.writeHead(204).end());
    });
  });
  targets.add(target);
  await new Promise<void>((resolve) => target.listen(port, '127.0.0.1', resolve));
}

/** Ends whatever a test left running: listeners, then targets. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((handle) => handle.stop()));
  const closing = [...targets].map((target) => new Promise<void>((resolve) => (target.closeAllConnections(), target.close(() => resolve()))));
  targets.clear();
  await Promise.all(closing);
}

/** `webhook-listen --print-url ...`: the run and its URL (its first stdout line). */
export async function listen(args: string[] = [], env: Record<string, string> = {}, where: Where = 'in-process'): Promise<Running & { url: string }> {
  const handle = start(['webhook-listen', '--print-url', ...args], env, where);
  const url = await handle.line(0);
  return Object.assign(handle, { url });
}

export const EMULATOR_UA = 'Agentctl-Emulator-AgentWebhook/1.0';

export async function post(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') {
  const { status, text } = await send(url, {
    method,
    headers: { 'content-type': 'application/json', 'user-agent': 'Test-AgentWebhook/1.0', ...headers },
    body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  let json: { ok?: boolean; error?: string } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, json };
}

/** A port that was free a moment ago (nothing listens on it). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let counter = 0;
/** A valid completion event for a fresh task id. */
export function completedEvent(n = counter++, extra: Record<string, unknown> = {}) {
  const hex = n.toString(16).padStart(12, '0');
  return { id: `3f2b8c1e-5d4a-4c7b-9e2f-${hex}`, status: 'completed', agent_id: null, result: `result ${n}`, ...extra };
}
