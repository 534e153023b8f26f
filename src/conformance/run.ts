import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiClient } from '../api/client.js';
import { EMULATED_SERVICE, startEmulator } from '../emulator/index.js';
import { compareAnswers, judge, type CompareContext, type JudgedDifference } from './diff.js';
import { MARKER_PREFIX, removeRecords, sweep, type Sweep } from './cleanup.js';
import { OPERATIONS, plannedCreates, type Operation, type RunFacts } from './operations.js';
import { CapReachedError, CreateCap, MissingRoleError, Side, type CreatedRecord, type Exchange, type RecordKind } from './side.js';
import { serviceVersion } from './version.js';

// The conformance run: each operation against the deployment and then against a fresh emulator of
// this process, each answer checked against what the service's code answers (the status, agentctl's
// schema) and compared with the emulator's by the rules of diff.ts. What the run created is
// removed at the end however it ends, Ctrl-C included; what an earlier run left, at the start.

export interface ConformanceOptions {
  /** The user's client (profile, retries, timeouts, redaction), aborted by Ctrl-C. */
  service: ApiClient;
  allowWrites: boolean;
  /** Ctrl-C: the operation in flight is given up, the cleanup still runs. */
  signal: AbortSignal;
  /** Told as each operation ends (progress on a terminal). */
  onOperation?: (result: OperationResult) => void;
  /** Only these operations (tests); every one by default. */
  operations?: readonly Operation[];
  /** This run's marker (tests); a random one by default. */
  marker?: string;
  /** Rules (or known differences' ids) whose differences the user accepts: listed, not counted. */
  ignore?: ReadonlySet<string>;
}

export type Outcome = 'pass' | 'fail' | 'error' | 'skipped' | 'interrupted';

export interface Check {
  /** `GET /tasks/browser-use/{task}/: status 200` */
  what: string;
  ok: boolean;
  /** What was seen instead (hostile text: escape it where shown). */
  seen?: string;
}

export interface OperationResult {
  name: string;
  summary: string;
  writes: boolean;
  outcome: Outcome;
  /** Checks passed out of checks made (0 made for one skipped or interrupted before its first answer). */
  passed: number;
  total: number;
  checks: Check[];
  /** What differs from the emulator; documented ones carry `known` and do not count against the score. */
  differences: Array<JudgedDifference & { request: string; ignored?: true }>;
  /** Why it could not run to its end (an error, a cap, a missing record). */
  error?: string;
}

export interface ConformanceReport {
  base_url: string;
  /** What the deployment says it runs (its remote MCP server's version), null when it does not say. */
  service_version: string | null;
  emulator: string;
  marker: string;
  writes: boolean;
  cap: { planned: Record<RecordKind, number>; limit: number; used: number } | null;
  operations: OperationResult[];
  score: { passed: number; total: number; percent: number };
  /** What earlier runs left (found by the marker) and what of it this run removed. */
  leftovers: { found: number; removed: number; failed: string[] };
  /** What this run created and did not see deleted by its own steps, removed at the end. */
  cleanup: { removed: number; failed: string[] };
  interrupted: boolean;
}

/** How long the comparison emulator's tasks run: long, so a cancel meets a task still running on both sides. */
const EMULATOR_TASK_MS = 10 * 60 * 1000;

export function newMarker(): string {
  return `${MARKER_PREFIX}${randomBytes(4).toString('hex')}`;
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const operations = (options.operations ?? OPERATIONS).filter((operation) => options.allowWrites || !operation.writes);
  const facts: RunFacts = { marker: options.marker ?? newMarker(), unknownId: randomUUID() };
  const planned = plannedCreates(operations);
  const limit = Object.values(planned).reduce((sum, count) => sum + count, 0);
  const cap = options.allowWrites ? new CreateCap(limit) : undefined;
  const report: ConformanceReport = {
    base_url: options.service.baseUrl,
    service_version: null,
    emulator: EMULATED_SERVICE,
    marker: facts.marker,
    writes: options.allowWrites,
    cap: cap ? { planned, limit, used: 0 } : null,
    operations: [],
    score: { passed: 0, total: 0, percent: 100 },
    leftovers: { found: 0, removed: 0, failed: [] },
    cleanup: { removed: 0, failed: [] },
    interrupted: false,
  };
  const emulator = await startEmulator({ port: 0, taskDurationMs: EMULATOR_TASK_MS });
  // The emulator's side is never recorded: a cassette holds the deployment's answers only.
  const emulatorClient = options.service.withOptions({ baseUrl: emulator.baseUrl, apiKey: 'emulator-key', signal: undefined, allowInsecureHttp: true, connections: undefined, record: undefined });
  const service = new Side('service', options.service, cap, options.signal);
  const twin = new Side('emulator', emulatorClient, undefined);
  try {
    report.service_version = await serviceVersion(options.service, options.signal);
    report.leftovers = summarize(await sweep(options.service, options.allowWrites));
    for (const operation of operations) {
      if (options.signal.aborted) break;
      const result = await runOperation(operation, { service, twin, facts, signal: options.signal, ignore: options.ignore ?? new Set() });
      report.operations.push(result);
      options.onOperation?.(result);
    }
  } catch (error) {
    // Ctrl-C during the version or the look for leftovers: the report says it was interrupted.
    if (!options.signal.aborted) throw error;
  } finally {
    report.interrupted = options.signal.aborted;
    // The cleanup outlives Ctrl-C: its requests do not listen to the aborted signal.
    // A read-only run cleans up only what the service made of input it should have refused.
    if (options.allowWrites || service.created.length > 0) report.cleanup = await cleanUp(options.service.withOptions({ signal: undefined }), service.created, facts.marker);
    if (report.cap && cap) report.cap.used = cap.count;
    emulatorClient.close();
    await emulator.close();
  }
  report.score = score(report.operations);
  return report;
}

function summarize(found: Sweep): ConformanceReport['leftovers'] {
  return { found: found.found.length, removed: found.removed, failed: found.failed };
}

/** Removes this run's records, then looks once more by its marker: a create whose answer Ctrl-C cut off made one too. */
async function cleanUp(client: ApiClient, created: readonly CreatedRecord[], marker: string): Promise<ConformanceReport['cleanup']> {
  const known = await removeRecords(client, created);
  let more: Sweep = { found: [], removed: 0, failed: [] };
  try {
    more = await sweep(client, true, marker);
  } catch (error) {
    more.failed.push(`looking for ${marker}: ${(error as Error).message}`);
  }
  return { removed: known.removed.length + more.removed, failed: [...known.failed, ...more.failed] };
}

interface Run {
  service: Side;
  twin: Side;
  facts: RunFacts;
  signal: AbortSignal;
  ignore: ReadonlySet<string>;
}

async function runOperation(operation: Operation, { service, twin, facts, signal, ignore }: Run): Promise<OperationResult> {
  const result: OperationResult = { name: operation.name, summary: operation.summary, writes: operation.writes, outcome: 'pass', passed: 0, total: 0, checks: [], differences: [] };
  let theirs: Exchange[] = [];
  try {
    if (operation.prepare && !(await operation.prepare(service, facts))) return { ...result, outcome: 'skipped', error: 'the deployment has no record for it to read' };
    await operation.run(service, facts);
  } catch (error) {
    result.outcome = signal.aborted ? 'interrupted' : 'error';
    result.error = signal.aborted ? 'stopped by Ctrl-C' : describe(error);
  } finally {
    theirs = service.takeExchanges();
  }
  let ours: Exchange[] = [];
  try {
    if (!operation.prepare || (await operation.prepare(twin, facts))) await operation.run(twin, facts);
  } catch (error) {
    if (!(error instanceof MissingRoleError) && result.error === undefined) result.error = `on the emulator: ${describe(error)}`;
  } finally {
    ours = twin.takeExchanges();
  }
  judgeExchanges(result, theirs, ours, { ids: idMap(service, twin), bases: { expected: service.client.baseUrl, actual: twin.client.baseUrl } }, ignore);
  if (result.outcome === 'error') {
    // Not having run to its end is a failed check of its own: an operation that errs at once scores 0, not 100%.
    result.checks.push({ what: 'runs to its end', ok: false, seen: result.error });
    result.total++;
  }
  if (result.outcome === 'pass' && result.passed < result.total) result.outcome = 'fail';
  if (result.outcome === 'pass' && result.error !== undefined) result.outcome = 'error';
  return result;
}

function describe(error: unknown): string {
  if (error instanceof CapReachedError || error instanceof MissingRoleError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The deployment's id of each role -> the emulator's id of the same role. */
function idMap(service: Side, twin: Side): Map<string, string> {
  const map = new Map<string, string>();
  for (const [role, id] of service.ids) {
    const theirs = twin.ids.get(role);
    if (theirs !== undefined) map.set(id, theirs);
  }
  return map;
}

/** The checks of each of the deployment's answers, and its differences from the emulator's answer to the same request. */
function judgeExchanges(result: OperationResult, theirs: Exchange[], ours: Exchange[], context: Pick<CompareContext, 'ids' | 'bases'>, ignore: ReadonlySet<string>): void {
  theirs.forEach((exchange, index) => {
    const request = `${exchange.method} ${exchange.template}`;
    const check = (what: string, ok: boolean, seen?: string) => {
      result.checks.push({ what: `${request}: ${what}`, ok, seen: ok ? undefined : seen });
      result.total++;
      if (ok) result.passed++;
    };
    const twin = ours[index];
    const paired = twin !== undefined && twin.template === exchange.template;
    const found = paired ? comparable(exchange, twin, compareAnswers(exchange, twin, { ...context, method: exchange.method, requestBody: exchange.sent })) : [];
    const differences = judge(found, exchange.method, exchange.path).map((difference) => {
      const ignored = ignore.has(difference.rule) || (difference.known !== undefined && ignore.has(difference.known));
      return ignored ? { ...difference, request, ignored: true as const } : { ...difference, request };
    });
    // A status the emulator documents as the plan's (no task credits left: 402) is the service's answer too.
    const planStatus = differences.some((difference) => difference.rule === 'status' && difference.known !== undefined);
    check(`status ${exchange.expected}`, exchange.status === exchange.expected || planStatus, String(exchange.status));
    if (exchange.accepted !== undefined) check("agentctl's schema takes the answer", exchange.accepted, 'refused');
    if (!paired) return check('the emulator answers it too', false, 'the emulator did not get this far');
    result.differences.push(...differences);
    const unknown = differences.filter((difference) => difference.known === undefined && !('ignored' in difference));
    check('the same as the emulator', unknown.length === 0, `${unknown.length} difference${unknown.length === 1 ? '' : 's'}`);
  });
}

/**
 * Page links of two pages that hold different numbers of records: the deployment has records the
 * fresh emulator has not, so whether there is a next page says nothing of either.
 */
function comparable(service: Exchange, twin: Exchange, found: JudgedDifference[]): JudgedDifference[] {
  const count = (body: unknown) => (typeof body === 'object' && body !== null ? (body as { count?: unknown }).count : undefined);
  if (count(service.body) === count(twin.body)) return found;
  return found.filter((difference) => difference.rule !== 'page-links');
}

/** Checks passed of checks made, over every operation that ran. */
function score(operations: readonly OperationResult[]): ConformanceReport['score'] {
  const passed = operations.reduce((sum, operation) => sum + operation.passed, 0);
  const total = operations.reduce((sum, operation) => sum + operation.total, 0);
  return { passed, total, percent: total === 0 ? 100 : Math.floor((passed / total) * 1000) / 10 };
}
