// Which service a batch ledger's ids belong to. Each `created` record carries the base URL it was
// created on and, against the bundled emulator, the emulator's run (EMULATOR_RUN_HEADER: which set of
// records it serves). A rerun against another service, or against an emulator that has forgotten
// them, is refused before anything is sent, saying so and how to start afresh, instead of a 404 for
// every line.
import type { ApiClient, ApiResponse } from '../api/client.js';
import { EMULATOR_RUN_HEADER } from '../contract/ids.js';
import { UsageError } from '../errors.js';
import { shellWord } from '../output/shell.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/** Where a task was created: what a `created` record carries. */
export interface ServiceStamp {
  service: string;
  /** The emulator's run, when the service is the emulator. */
  run?: string;
}

/** The emulator run an answer came from (undefined from the real service). */
export function runOf(answer: ApiResponse<unknown>): string | undefined {
  const value = answer.headers[EMULATOR_RUN_HEADER];
  const run = Array.isArray(value) ? value[0] : value;
  // Kept in the ledger: only a plain token, never whatever a service sends.
  return run !== undefined && /^[\w-]{1,64}$/.test(run) ? run : undefined;
}

/** The stamp of this run's records: the base URL now, the emulator's run once an answer has told it. */
export class ServiceIdentity {
  /** Made once: every `created` record of a batch spreads it. */
  stamp: ServiceStamp;
  private told = false;

  constructor(readonly service: string) {
    this.stamp = { service };
  }

  /** Reads the run from the first answer only (reading headers costs every create a little). */
  note(answer: ApiResponse<unknown>): void {
    if (this.told) return;
    this.told = true;
    const run = runOf(answer);
    if (run !== undefined) this.stamp = { service: this.service, run };
  }
}

/**
 * Refuses a ledger whose tasks were created on another service than `client`'s, or on an emulator
 * run that is gone. Records without a stamp (older ledgers, records added by hand) are not checked.
 * Asks the service (one GET) only when a record names an emulator run.
 */
export async function checkLedgerService(ledger: Ledger, client: ApiClient, signal?: AbortSignal): Promise<void> {
  const groups = new Map<string, { stamp: ServiceStamp; count: number }>();
  for (const entry of ledger.entries.values()) {
    const stamp = stampOf(entry);
    if (!stamp) continue;
    const key = `${stamp.service} ${stamp.run ?? ''}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { stamp, count: 1 });
  }
  if (groups.size === 0) return;
  const here = client.baseUrl;
  let currentRun: Promise<string | undefined> | undefined;
  for (const { stamp, count } of groups.values()) {
    if (stamp.run === undefined) {
      if (stamp.service !== here) throw elsewhere(ledger, count, stamp.service, here);
      continue;
    }
    currentRun ??= client.request('GET', '/tasks/browser-use/', { query: { page_size: 1 }, signal }).then(runOf);
    if ((await currentRun) === stamp.run) continue; // the same emulator, maybe under another name (localhost)
    throw stamp.service === here ? forgotten(ledger, count, here) : elsewhere(ledger, count, stamp.service, here);
  }
}

function stampOf(entry: LedgerEntry): ServiceStamp | undefined {
  if (entry.state !== 'created' || typeof entry.service !== 'string') return undefined;
  return { service: entry.service, run: typeof entry.run === 'string' ? entry.run : undefined };
}

function afresh(ledger: Ledger): string {
  const path = ledger.path ?? '';
  return `to start afresh, move the ledger away (mv ${shellWord(path)} ${shellWord(`${path}.old`)}) or give another with --ledger PATH`;
}

function tasksWord(count: number): string {
  return `${count} task${count === 1 ? '' : 's'}`;
}

function elsewhere(ledger: Ledger, count: number, there: string, here: string): UsageError {
  return new UsageError(
    `the ledger ${ledger.path} lists ${tasksWord(count)} created on ${there}, not on ${here} (this run's service): their ids mean nothing there`,
    `${afresh(ledger)}; to resume, rerun against ${there} (--base-url URL)`,
  );
}

function forgotten(ledger: Ledger, count: number, here: string): UsageError {
  return new UsageError(
    `the ledger ${ledger.path} lists ${tasksWord(count)} created by an earlier run of the emulator at ${here}, which has forgotten them since (restarted without --state, or reset)`,
    `${afresh(ledger)} (every line is sent again); \`agentctl emulator --state FILE\` keeps its records across restarts`,
  );
}
