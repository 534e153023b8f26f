// Which file is which agent on which service: `agentctl.lock.json`, kept beside the files (and
// committed with them), one section per service base URL, so one folder applies to a laptop's
// emulator, staging and production, each agent created once on each.
//
// The lock file is also apply's journal. A create is written down as `pending` before it
// is sent and as its id once answered; a run killed between the two leaves `pending`, and the next
// run looks for the agent by name before it creates anything (a create is never sent twice blindly).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../contract/atomic-write.js';
import { isUuid } from '../contract/ids.js';
import { UsageError } from '../errors.js';
import { isAgentFileName } from './folder.js';

export const LOCK_FILE = 'agentctl.lock.json';

/** What the lock file knows of one file's agent on one service. */
export interface IdentityEntry {
  /** The agent's id; absent while its create is pending. */
  id?: string;
  /** The agent's name when its create was sent: a pending create is looked for by it. */
  name?: string;
  /** The create was written down but its answer was not: the agent may or may not exist. */
  pending?: boolean;
  /** apply created the agent (prune may delete it); false: it existed and was adopted by name. */
  created: boolean;
  /** preferred_contact email/sms as last applied, and the endpoint id the service chose for it. */
  contact?: { value: string; endpoint: string | null };
}

/** The files' entries on one service, by file name. */
export type Identities = Map<string, IdentityEntry>;

interface LockDocument {
  version: 1;
  /** By base URL. */
  services: Record<string, Record<string, IdentityEntry>>;
}

/** A service's key in the lock file: its base URL without credentials, query or trailing slash. */
export function serviceKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The lock file of `dir`, every service's entries (a missing file is an empty one). */
export class IdentityFile {
  private constructor(
    readonly path: string,
    private readonly document: LockDocument,
  ) {}

  static async read(dir: string): Promise<IdentityFile> {
    const path = join(dir, LOCK_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new IdentityFile(path, { version: 1, services: {} });
      throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
    }
    return new IdentityFile(path, checkDocument(text, path));
  }

  /** The entries of one service (a copy: change them with set/remove). */
  entries(service: string): Identities {
    return new Map(Object.entries(this.document.services[service] ?? {}));
  }

  set(service: string, file: string, entry: IdentityEntry): void {
    (this.document.services[service] ??= {})[file] = entry;
  }

  remove(service: string, file: string): void {
    delete this.document.services[service]?.[file];
  }

  /**
   * Written whole in one step (renamed over): a kill leaves the old file or the new one. `sync`
   * makes it safe from a power cut too: apply syncs once at its end, not at each step (a step whose
   * record a power cut loses is found again by name, as a pending create is).
   */
  async save(sync = false): Promise<void> {
    const services: LockDocument['services'] = {};
    for (const key of Object.keys(this.document.services).sort()) {
      const entries = this.document.services[key]!;
      if (Object.keys(entries).length === 0) continue;
      services[key] = Object.fromEntries(Object.keys(entries).sort().map((file) => [file, entries[file]!]));
    }
    await writeFileAtomically(this.path, `${JSON.stringify({ version: 1, services }, null, 2)}\n`, { sync });
  }
}

/** The lock file checked as hostile input: it comes with the folder, and its ids become URL segments. */
function checkDocument(text: string, path: string): LockDocument {
  const refuse = (problem: string): never => {
    throw new UsageError(`${path}: ${problem}`, 'it is written by agentctl apply; restore it from version control, or remove it (apply then adopts the agents by name)');
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return refuse(`is not JSON (${(error as Error).message})`);
  }
  const document = value as Partial<LockDocument>;
  if (typeof value !== 'object' || value === null || document.version !== 1 || typeof document.services !== 'object' || document.services === null) {
    return refuse('is not an agentctl lock file of version 1');
  }
  for (const [service, entries] of Object.entries(document.services)) {
    if (typeof entries !== 'object' || entries === null) return refuse(`the entry of ${JSON.stringify(service)} is not an object`);
    for (const [file, entry] of Object.entries(entries as Record<string, unknown>)) {
      const problem = entryProblem(file, entry);
      if (problem) refuse(`${JSON.stringify(file)} of ${JSON.stringify(service)}: ${problem}`);
    }
  }
  return document as LockDocument;
}

function entryProblem(file: string, value: unknown): string | undefined {
  if (!isAgentFileName(file)) return 'is not the name of an agent file of the folder';
  if (typeof value !== 'object' || value === null) return 'is not an object';
  const entry = value as Partial<IdentityEntry>;
  if (entry.id !== undefined && (typeof entry.id !== 'string' || !isUuid(entry.id))) return 'its id is not a UUID';
  if (entry.id === undefined && entry.pending !== true) return 'has neither an id nor a pending create';
  if (entry.name !== undefined && typeof entry.name !== 'string') return 'its name is not text';
  if (typeof entry.created !== 'boolean') return 'says neither created true nor false';
  return undefined;
}
