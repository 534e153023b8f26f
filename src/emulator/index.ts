import type { AddressInfo } from 'node:net';
import { SERVICE_LIMITS } from '../contract/limits.js';
import { ManualClock, systemClock, type Clock } from './clock.js';
import { Faults } from './faults.js';
import { hostGuard } from './host-guard.js';
import { Lifecycle } from './lifecycle.js';
import { buildRoutes } from './routes.js';
import { BASE_PATH, createEmulatorServer, RequestLog, type RequestRecord } from './server.js';
import { State, type PlanLimits, type StateSnapshot } from './state.js';
import { readStateFile } from './state-file.js';
import { StateFileError, StateSaver, type LockProcess } from './state-saver.js';
import { WebhookSender } from './webhook.js';

export { PROMPT_MARKERS } from './lifecycle.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export { State, type StateSnapshot } from './state.js';
export { parseFaults, FaultSpecError } from './faults.js';
export { REQUEST_LOG_SIZE, type RequestRecord } from './server.js';
export { DEFAULT_SAVE_INTERVAL_MS, StateFileError, type LockProcess } from './state-saver.js';

export interface EmulatorOptions {
  /** Port to listen on; 0 picks a free one (default 8787). */
  port?: number;
  host?: string;
  apiKey?: string;
  /** Time from create to a task's final state. */
  taskDurationMs?: number;
  /** Extra delay before every response. */
  latencyMs?: number;
  /** One line per request and per webhook delivery. */
  log?: (line: string) => void;
  /** The emulator's time (default: the system clock); tests pass a ManualClock and advance it. */
  clock?: Clock;
  /** Largest request body accepted (default: the service's proxy limit); larger answers 413. */
  maxBodyBytes?: number;
  /** Faults to inject (the grammar of faults.ts and docs/emulator-library.md), e.g. "503@10%, latency=50ms". */
  faults?: string;
  /** Makes ids and fault draws repeatable: the same seed and requests give the same ids and faults. */
  seed?: number;
  /**
   * A JSON file the records are loaded from at start (when it exists), saved to while running (see
   * saveIntervalMs) and on close. One emulator at a time: a second one on the same file refuses it.
   */
  stateFile?: string;
  /** With stateFile: how often (on the emulator's clock) the records are saved if anything changed (default 2 s). */
  saveIntervalMs?: number;
  /** With stateFile: this process, as the file's lock names its holder (a lock whose process is gone is taken over at once). */
  process?: LockProcess;
  /**
   * On a loopback host (the default), requests whose Host header is not a loopback name (localhost,
   * 127.x.x.x, [::1]) are refused (421: a page of another site could reach it through DNS rebinding).
   * These names are answered too: `name` on any port, `name:port` on that one.
   */
  allowedHosts?: string[];
  /** Completion webhooks delivered at once at most (default 16); the others wait their turn. */
  webhookConcurrency?: number;
  /** Plan limits to apply (none by default): `agentLimit` persistent agents, `taskCredits` task creates. */
  plan?: PlanLimits;
  /** false: a task's completion webhook is never sent (a replay of a cassette must not call the addresses it names). */
  deliverWebhooks?: boolean;
}

export interface RunningEmulator {
  baseUrl: string;
  port: number;
  /** The records, for tests and benchmarks that arrange data without HTTP. */
  state: State;
  /** The emulator's clock (a ManualClock when given one). */
  clock: Clock;
  /** Moves a ManualClock forward, running what falls due (tasks start and end); throws on the system clock. */
  advance(ms: number): void;
  /** The faults in force: replace them (same grammar as --faults), or clear them. */
  faults: { set(spec: string, seed?: number): void; clear(): void; readonly spec: string };
  /** The requests answered since start (or the last reset), oldest first: at least the latest 10,000. */
  readonly requests: readonly RequestRecord[];
  /** Forgets every record, running task and logged request (faults stay). */
  reset(): void;
  /** Writes the records as JSON to `file` (default: the stateFile option). */
  save(file?: string): Promise<void>;
  close(): Promise<void>;
}

/** The service version whose behaviour the emulator reproduces (see docs/emulator.md). */
export const EMULATED_SERVICE = 'Gobii API 0.1.0 (OpenAPI 3.0.3 document of gobii-platform c9929bf, with docs/service-behaviour.md)';

/** Starts the in-memory service: every route of the spec below /api/v1, behaving as documented. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? systemClock();
  const state = new State(clock, options.seed);
  state.plan = { ...options.plan };
  const lifecycle = new Lifecycle(state, options.taskDurationMs ?? 3000);
  const webhooks = new WebhookSender(state, log, options.webhookConcurrency);
  if (options.deliverWebhooks !== false) lifecycle.onEnd((task) => webhooks.deliver(task));
  // The file is taken (locked, checked savable: a state that cannot be saved would be lost when the
  // emulator stops) before it is read, and loaded before the routes are built, so the loaded agents'
  // schedules are armed with them.
  const saver = options.stateFile ? await StateSaver.open(options.stateFile, state, { clock, intervalMs: options.saveIntervalMs, process: options.process }) : undefined;
  if (options.stateFile) await loadState(options.stateFile, state, lifecycle).catch(async (error: unknown) => {
    await saver?.abandon();
    throw error;
  });
  const faults = new Faults(options.faults ?? '', options.seed ?? 1);
  const requests = new RequestLog();
  const reset = () => {
    lifecycle.stop();
    state.clear();
    state.touch();
    requests.clear();
  };
  const hostAllowed = hostGuard(options.host ?? '127.0.0.1', options.allowedHosts);
  const server = createEmulatorServer({
    state,
    clock,
    routes: buildRoutes({ state, lifecycle, webhookDelivered: (id) => webhooks.delivered(id) }, { hostAllowed }),
    faults,
    requests,
    apiKey: options.apiKey ?? 'emulator-key',
    maxBodyBytes: options.maxBodyBytes ?? SERVICE_LIMITS.requestBodyBytes,
    latencyMs: options.latencyMs,
    log: options.log,
    hostAllowed,
    reset,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', resolve);
    });
  } catch (error) {
    lifecycle.stop();
    await saver?.abandon();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    baseUrl: `http://${host}:${address.port}${BASE_PATH}`,
    port: address.port,
    state,
    clock,
    advance(ms) {
      if (!(clock instanceof ManualClock)) throw new Error('advance() needs the emulator started with a ManualClock (clock: new ManualClock())');
      clock.advance(ms);
    },
    faults: {
      set: (spec, seed) => faults.set(spec, seed),
      clear: () => faults.set(''),
      get spec() {
        return faults.describe().spec;
      },
    },
    get requests() {
      return requests.records;
    },
    reset,
    save: (file) => {
      if (saver) return saver.save(file);
      if (!file) return Promise.reject(new Error('no state file: pass one to save(file) or start with stateFile'));
      return StateSaver.saveOnce(file, state);
    },
    close: async () => {
      lifecycle.stop();
      webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await saver?.close();
    },
  };
}

async function loadState(file: string, state: State, lifecycle: Lifecycle): Promise<void> {
  let snapshot: StateSnapshot | undefined;
  try {
    snapshot = await readStateFile(file); // checked as the service's records (state-file.ts)
  } catch (error) {
    throw new StateFileError((error as NodeJS.ErrnoException).code ? `cannot read ${file}: ${(error as Error).message}` : (error as Error).message);
  }
  if (!snapshot) return; // a first run: saved on close
  state.load(snapshot);
  // Tasks that were running when the state was saved run again from where they were.
  for (const task of state.tasks.values()) if (task.status === 'pending' || task.status === 'in_progress') lifecycle.start(task);
}
