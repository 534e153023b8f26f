// Helpers for the webhook end-to-end tests: a long-running agentctl whose output is read as it
// comes, posting to a listener, and free loopback ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { BIN, childEnv, tempDir } from '../helpers/cli.js';

export interface Running {
  child: ChildProcess;
  /** stdout lines so far. */
  lines: string[];
  /** stderr so far. */
  stderr: () => string;
  /** Resolves with the exit code (or -1 for a signal). */
  exited: Promise<number>;
  /** Waits for the n-th stdout line (0-based); fails if the process ends first. */
  line(index: number): Promise<string>;
  /** Waits until stderr matches; fails if the process ends first. */
  stderrMatches(pattern: RegExp): Promise<string>;
  /** Ends the process if it still runs (for afterEach). */
  stop(): Promise<void>;
}

const running = new Set<Running>();

/** Starts the built CLI with a clean environment and keeps reading its output. */
export function start(args: string[], env: Record<string, string> = {}): Running {
  const home = tempDir('agentctl-config-');
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(home, env),
  });
  const lines: string[] = [];
  let stderr = '';
  let closed: number | undefined;
  // Waits for what the process prints, or for its end: never for a time (a busy machine starts it late).
  const waiting = new Set<() => void>();
  const changed = () => {
    for (const check of [...waiting]) check();
  };
  const until = <T>(value: () => T | undefined, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = value();
        if (found === undefined && closed === undefined) return;
        waiting.delete(check);
        if (found !== undefined) resolve(found);
        else reject(new Error(`agentctl ${args.join(' ')} exited (${closed}) before ${what}; stderr: ${stderr}`));
      };
      waiting.add(check);
      check();
    });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    lines.push(line);
    changed();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    changed();
  });
  const exited = new Promise<number>((resolve) =>
    child.once('close', (code) => {
      closed = code ?? -1;
      changed();
      resolve(closed);
    }),
  );
  const handle: Running = {
    child,
    lines,
    stderr: () => stderr,
    exited,
    line: (index) => until(() => lines[index], `stdout line ${index + 1}`),
    stderrMatches: (pattern) => until(() => (pattern.test(stderr) ? stderr : undefined), `stderr matched ${pattern}`),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      running.delete(handle);
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** Kills whatever a test left running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((handle) => handle.stop()));
}

/** `webhook-listen --print-url ...`: the process and its URL (its first stdout line). */
export async function listen(args: string[] = [], env: Record<string, string> = {}): Promise<Running & { url: string }> {
  const handle = start(['webhook-listen', '--print-url', ...args], env);
  const url = await handle.line(0);
  return Object.assign(handle, { url });
}

export const EMULATOR_UA = 'Agentctl-Emulator-AgentWebhook/1.0';

export async function post(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', 'user-agent': 'Test-AgentWebhook/1.0', ...headers },
    body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: { ok?: boolean; error?: string } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
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
