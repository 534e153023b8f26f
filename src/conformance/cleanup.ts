import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { pathSegment } from '../api/url.js';
import type { CreatedRecord } from './side.js';

// What a conformance run leaves behind is removed by its own cleanup, and what a stopped run left
// (Ctrl-C while a create was on its way, a killed process) by the next run: every record a run
// creates carries MARKER_PREFIX in its name (agents) or its prompt (tasks), so the next run finds
// them by listing. Only records with the marker are ever touched.

export const MARKER_PREFIX = 'agentctl-conformance-';

/** Pages read per list when looking for leftovers (tasks are many; a run's are the newest). */
const SWEEP_PAGES = 10;
const PAGE_SIZE = 100;

export interface Sweep {
  /** Leftovers found (by the marker). */
  found: CreatedRecord[];
  /** Of those, removed. */
  removed: number;
  /** What could not be removed, each as `kind id: why`. */
  failed: string[];
}

interface Listed {
  id?: unknown;
  name?: unknown;
  prompt?: unknown;
  browser_use_agent_id?: unknown;
}

const marked = (text: unknown, marker: string) => typeof text === 'string' && text.includes(marker);

/** Reads up to SWEEP_PAGES pages of a list, newest first as the service orders it. */
async function listSome(client: ApiClient, path: string): Promise<Listed[]> {
  const items: Listed[] = [];
  for (let page = 1; page <= SWEEP_PAGES; page++) {
    let answer: { results?: unknown; next?: unknown };
    try {
      answer = await client.get(path, { query: { page_size: PAGE_SIZE, page } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) break; // past the last page
      throw error;
    }
    if (!Array.isArray(answer.results)) break;
    items.push(...(answer.results as Listed[]).filter((item) => typeof item === 'object' && item !== null));
    if (typeof answer.next !== 'string') break;
  }
  return items;
}

/** The records with `marker` in their name or prompt: tasks first (they go first), then agents. */
export async function findMarked(client: ApiClient, marker: string): Promise<CreatedRecord[]> {
  const found: CreatedRecord[] = [];
  for (const task of await listSome(client, '/tasks/browser-use/')) {
    if (typeof task.id === 'string' && marked(task.prompt, marker)) found.push({ kind: 'task', id: task.id });
  }
  // A persistent agent's own browser-use agent is listed among them too: it goes with its persistent agent.
  const behind = new Set<unknown>();
  for (const agent of await listSome(client, '/agents/')) {
    behind.add(agent.browser_use_agent_id);
    if (typeof agent.id === 'string' && marked(agent.name, marker)) found.push({ kind: 'persistent-agent', id: agent.id });
  }
  for (const agent of await listSome(client, '/agents/browser-use/')) {
    if (typeof agent.id === 'string' && !behind.has(agent.id) && marked(agent.name, marker)) found.push({ kind: 'legacy-agent', id: agent.id });
  }
  return found;
}

/** The path of a record (a task by its standalone route, which finds it whatever its agent). */
function recordPath(record: CreatedRecord): string {
  const id = pathSegment(record.id);
  if (record.kind === 'task') return `/tasks/browser-use/${id}/`;
  return record.kind === 'persistent-agent' ? `/agents/${id}/` : `/agents/browser-use/${id}/`;
}

/** Whether a failed request means the record is gone already. */
const gone = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * Removes records: a task is cancelled (a running one would else go on) and deleted, agents are
 * deleted. A record already gone counts as removed. Never throws: what failed is listed.
 */
export async function removeRecords(client: ApiClient, records: readonly CreatedRecord[]): Promise<{ removed: CreatedRecord[]; failed: string[] }> {
  const removed: CreatedRecord[] = [];
  const failed: string[] = [];
  // Tasks before agents: a task below a deleted agent is still on the standalone route, but its cancel should come first.
  const order = (record: CreatedRecord) => ['task', 'persistent-agent', 'legacy-agent'].indexOf(record.kind);
  for (const record of [...records].sort((a, b) => order(a) - order(b))) {
    const path = recordPath(record);
    try {
      if (record.kind === 'task') {
        await client.post(`${path}cancel/`, undefined).catch((error: unknown) => {
          // 409: it has ended already; 404: it is gone. Either way the delete decides.
          if (!(error instanceof ApiError && (error.status === 409 || error.status === 404))) throw error;
        });
      }
      await client.delete(path);
      removed.push(record);
    } catch (error) {
      if (gone(error)) removed.push(record);
      else failed.push(`${record.kind} ${record.id}: ${(error as Error).message}`);
    }
  }
  return { removed, failed };
}

/** Finds what earlier runs left (any run's marker) and, when `remove`, removes it. */
export async function sweep(client: ApiClient, remove: boolean, marker = MARKER_PREFIX): Promise<Sweep> {
  const found = await findMarked(client, marker);
  if (!remove || found.length === 0) return { found, removed: 0, failed: [] };
  const { removed, failed } = await removeRecords(client, found);
  return { found, removed: removed.length, failed };
}
