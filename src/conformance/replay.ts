// Replays a cassette against a fresh emulator in this process and compares each answer with the
// recorded one (diff.ts). The emulator's clock is a ManualClock set to each request's recorded
// time, and moved on to when its answer came while the request is open (a create with `wait`
// holds its answer until the task ends); ids the recording's answers carry map to the emulator's
// for the same records, so later paths, queries and bodies name the emulator's. The emulator sends
// no completion webhook: the addresses a cassette names are never called.
import { HttpTransport, type HttpResponse } from '../api/transport.js';
import { ManualClock, startEmulator, type RunningEmulator } from '../emulator/index.js';
import { isUuid } from '../contract/ids.js';
import type { RecordedLine } from './cassette.js';
import { compareAnswers, judge, type JudgedDifference } from './diff.js';

export interface ReplayedExchange {
  line: number;
  method: string;
  /** The recorded path (the recording's ids). */
  path: string;
  expectedStatus?: number;
  actualStatus?: number;
  differences: JudgedDifference[];
  /** Why it was not replayed or not compared, when it was not. */
  skipped?: string;
}

const KEY = 'agentctl-check-key';
const REQUEST_TIMEOUT_MS = 30_000;
/** How far past its recorded answer a request's clock is moved, a second at a time, before it counts as unanswered. */
const MAX_EXTRA_SECONDS = 3600;
const UUIDS = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

/** Every exchange of one cassette, replayed in order against an emulator of its own. */
export async function replayCassette(lines: readonly RecordedLine[], signal?: AbortSignal): Promise<ReplayedExchange[]> {
  const clock = new ManualClock(lines[0]?.at ?? Date.now());
  const emulator = await startEmulator({ port: 0, host: '127.0.0.1', apiKey: KEY, clock, seed: 1, deliverWebhooks: false });
  const replay = new Replay(emulator, clock);
  try {
    const out: ReplayedExchange[] = [];
    for (const line of lines) {
      if (signal?.aborted) throw signal.reason;
      out.push(await replay.exchange(line, signal));
    }
    return out;
  } finally {
    replay.close();
    await emulator.close();
  }
}

class Replay {
  /** Recorded id -> the emulator's id for the same record (lower case). */
  readonly ids = new Map<string, string>();
  private readonly transport = new HttpTransport();
  private readonly origin: string;
  private readonly basePath: string;

  constructor(
    private readonly emulator: RunningEmulator,
    private readonly clock: ManualClock,
  ) {
    const base = new URL(emulator.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/$/, '');
  }

  async exchange(line: RecordedLine, signal?: AbortSignal): Promise<ReplayedExchange> {
    const { method, path } = line;
    const report: ReplayedExchange = { line: line.line, method, path, expectedStatus: line.answer?.status, differences: [] };
    if (!line.answer) return { ...report, skipped: `the recorded request got no answer (${line.error ?? 'no status'})` };
    const unknown = this.unmappedId([path, ...line.query.map(([, value]) => value)]);
    // A record that existed before the recording is not in a fresh emulator: its 404 would say nothing.
    if (unknown && line.answer.status < 400) return { ...report, skipped: `it names ${unknown}, a record the recording did not make` };
    if (line.at > this.clock.now()) this.clock.advance(line.at - this.clock.now());
    const response = await this.send(line, signal);
    if (!response) return { ...report, skipped: 'the emulator did not answer' };
    const body = parseBody(response.text);
    report.actualStatus = response.status;
    if (response.status < 300 && line.answer.status < 300) learnIds(line.answer.body, body, this.ids);
    const found = compareAnswers(line.answer, { status: response.status, body }, {
      method,
      requestBody: line.requestBody,
      ids: this.ids,
      bases: { expected: line.base, actual: this.emulator.baseUrl },
    });
    report.differences = judge(found, method, path);
    return report;
  }

  /** The first id in `texts` that is not one the recording made (undefined when all are). */
  private unmappedId(texts: string[]): string | undefined {
    for (const text of texts) for (const id of text.match(UUIDS) ?? []) if (!this.ids.has(id.toLowerCase())) return id;
    return undefined;
  }

  /** The recorded request, ids mapped, sent to the emulator; undefined when no answer came. */
  private async send(line: RecordedLine, signal?: AbortSignal): Promise<HttpResponse | undefined> {
    const url = new URL(`${this.origin}${this.basePath}${this.mapIds(line.path)}`);
    // The path was checked as a URL path when the cassette was read; it must still be this emulator's.
    if (url.origin !== this.origin || !url.pathname.startsWith(`${this.basePath}/`)) return undefined;
    for (const [name, value] of line.query) url.searchParams.append(name, this.mapIds(value));
    const headers: Record<string, string> = { 'x-api-key': KEY, accept: line.accept ?? 'application/json' };
    let body: string | undefined;
    if (line.requestBody !== undefined) {
      body = JSON.stringify(mapValue(line.requestBody, (text) => this.mapIds(text)));
      headers['content-type'] = line.contentType ?? 'application/json';
    }
    const sent = this.transport.send(url, { method: line.method, headers, body, timeoutMs: REQUEST_TIMEOUT_MS, signal });
    return this.whileTimeMoves(sent, line.at + line.ms).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      return undefined;
    });
  }

  /**
   * The answer, moving the clock while it is awaited: to when the recorded answer came, then a
   * second at a time (an answer held until a task ends waits for the clock).
   */
  private async whileTimeMoves(sent: Promise<HttpResponse>, answeredAt: number): Promise<HttpResponse> {
    let done = false;
    const settled = sent.finally(() => (done = true));
    settled.catch(() => undefined);
    for (let step = 0; step <= MAX_EXTRA_SECONDS; ) {
      await new Promise((resolve) => setImmediate(resolve));
      if (done) break;
      if (this.clock.now() < answeredAt) this.clock.advance(answeredAt - this.clock.now());
      else {
        this.clock.advance(1000);
        step++;
      }
    }
    return settled;
  }

  private mapIds(text: string): string {
    return text.replace(UUIDS, (id) => this.ids.get(id.toLowerCase()) ?? id);
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * Learns which emulator id stands for which recorded id: the same place in two answers to the same
 * request, both ids. Lists are left out: a recorded list also holds records made before the recording.
 */
export function learnIds(expected: unknown, actual: unknown, ids: Map<string, string>): void {
  const taken = new Set(ids.values());
  const pending: Array<[unknown, unknown]> = [[expected, actual]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [a, b] = next;
    if (typeof a === 'string' && typeof b === 'string') {
      if (isUuid(a) && isUuid(b) && !ids.has(a.toLowerCase()) && !taken.has(b.toLowerCase())) {
        ids.set(a.toLowerCase(), b.toLowerCase());
        taken.add(b.toLowerCase());
      }
      continue;
    }
    if (typeof a !== 'object' || a === null || Array.isArray(a) || typeof b !== 'object' || b === null || Array.isArray(b)) continue;
    for (const key of Object.keys(a)) if (Object.hasOwn(b, key)) pending.push([(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]]);
  }
}

/** A copy of JSON with `change` applied to every string value. */
function mapValue(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((item) => mapValue(item, change));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: mapValue(item, change), enumerable: true, writable: true, configurable: true });
  return out;
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
