// Reading a `--state` file back. The file is a user's file, edited by hand at times, or not the
// emulator's at all (a wrong path): it is checked before its records are loaded, so a record the
// service could never hold (a task status it does not have, two tasks with one id) is refused at
// start, naming what is wrong, instead of being served. Messages say where and what, never quote the
// file (it may be any file of the machine).
import { open, readFile, stat } from 'node:fs/promises';
import { isUuid } from '../contract/ids.js';
import { LIFE_STATES, TASK_STATUSES, WHITELIST_POLICIES } from '../contract/enums.js';
import { describeJsonError } from '../contract/json-error.js';
import type { StateSnapshot } from './state.js';

/** The largest state file loaded: a string of it must fit V8's (~512 MiB); docs/emulator-library.md says to keep states well under. */
export const MAX_STATE_BYTES = 512 * 1024 * 1024;
/** How every saved state starts (JSON.stringify of a snapshot; a pretty-printed one has white space between). */
const STATE_START = /^\s*\{\s*"version"\s*:/;

/** The snapshot in `file`, checked; undefined when there is no file (a first run). Throws an Error saying what is wrong. */
export async function readStateFile(file: string): Promise<StateSnapshot | undefined> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error(`cannot read ${file}: it is not a regular file`);
    size = info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const notOurs = `${file} is not a state file the emulator wrote`;
  if (size > MAX_STATE_BYTES) throw new Error(`${notOurs} (it is ${Math.round(size / 1024 / 1024)} MB; the emulator loads at most ${MAX_STATE_BYTES / 1024 / 1024} MB)`);
  // The start tells a file that is not a saved state before the whole of it is read.
  if (!STATE_START.test(await head(file, 64))) throw new Error(`${notOurs} (it does not start with {"version": ...})`);
  const text = await readFile(file, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${notOurs} (not valid JSON: ${describeJsonError(text, error)})`);
  }
  const problem = snapshotProblem(value);
  if (problem) throw new Error(`${notOurs}, or was edited: ${problem}`);
  return value as StateSnapshot;
}

async function head(file: string, bytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === 'string';
const orNull = (check: Check): Check => (value) => value === null || check(value);
const isSeq: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isBoolean: Check = (value) => typeof value === 'boolean';
const oneOf = (values: readonly string[]): Check => (value) => typeof value === 'string' && values.includes(value);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of each kind of record that the emulator's routes rely on, as the service shapes them. */
const AGENT: Record<string, Check> = { id: isString, name: isString, created_at: isString, updated_at: isString, seq: isSeq };
const TASK: Record<string, Check> = {
  id: isString,
  agent_id: orNull(isString),
  prompt: orNull(isString),
  requires_vision: isBoolean,
  status: oneOf(TASK_STATUSES),
  created_at: isString,
  updated_at: isString,
  error_message: orNull(isString),
  credits_cost: orNull(isString),
  webhook: orNull(isString),
  seq: isSeq,
};
const PERSISTENT: Record<string, Check> = {
  id: isString,
  name: isString,
  charter: isString,
  schedule: orNull(isString),
  is_active: isBoolean,
  life_state: oneOf(LIFE_STATES),
  whitelist_policy: oneOf(WHITELIST_POLICIES),
  browser_use_agent_id: isString,
  created_at: isString,
  updated_at: isString,
  seq: isSeq,
  events: Array.isArray,
};

/** What is wrong with a parsed state file (its records named by kind and position), or undefined. */
export function snapshotProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'it is not a JSON object';
  if (value.version !== 1) return '"version" is not 1';
  if (!isSeq(value.seq)) return '"seq" is not a whole number';
  if (value.run !== undefined && !isString(value.run)) return '"run" is not a string';
  for (const list of ['agents', 'hiddenAgents', 'tasks', 'persistentAgents', 'messageTasks', 'intervalStarts']) {
    if (!Array.isArray(value[list])) return `"${list}" is not a list`;
  }
  const agents = value.agents as unknown[];
  const agentIds = new Set<string>();
  const problem =
    records(agents, 'agent', AGENT, agentIds) ??
    records(value.tasks as unknown[], 'task', TASK, new Set(), (task) => (task.agent_id === null || agentIds.has(task.agent_id as string) ? undefined : 'its agent_id names no agent of the file')) ??
    records(value.persistentAgents as unknown[], 'persistent agent', PERSISTENT, new Set(), (agent) => (agentIds.has(agent.browser_use_agent_id as string) ? undefined : 'its browser_use_agent_id names no agent of the file'));
  if (problem) return problem;
  if ((value.hiddenAgents as unknown[]).some((id) => typeof id !== 'string' || !agentIds.has(id))) return '"hiddenAgents" names an agent the file does not hold';
  if ((value.messageTasks as unknown[]).some((entry) => !Array.isArray(entry) || !isString(entry[0]) || !isRecord(entry[1]))) return '"messageTasks" holds an entry that is not [task id, origin]';
  if ((value.intervalStarts as unknown[]).some((entry) => !Array.isArray(entry) || !isString(entry[0]) || typeof entry[1] !== 'number')) return '"intervalStarts" holds an entry that is not [key, time]';
  const remote = remoteMcpProblem(value);
  if (remote) return remote;
  const highest = Math.max(0, ...[agents, value.tasks, value.persistentAgents].flatMap((list) => (list as Array<{ seq: number }>).map((record) => record.seq)));
  if (highest > (value.seq as number)) return `"seq" is below a record's (new records would take its place in the lists)`;
  return undefined;
}

/** The first problem of a list of records: a field missing or of the wrong kind, an id that is not a UUID or is another record's. */
function records(list: unknown[], kind: string, fields: Record<string, Check>, ids: Set<string>, more?: (record: Record<string, unknown>) => string | undefined): string | undefined {
  for (const [index, record] of list.entries()) {
    const where = `${kind} ${index + 1} of ${list.length}`;
    if (!isRecord(record)) return `${where} is not an object`;
    const bad = Object.keys(fields).find((field) => !(fields[field] as Check)(record[field]));
    if (bad !== undefined) return `${where}: "${bad}" ${bad in record ? 'is not one the service could hold' : 'is missing'}`;
    const id = record.id as string;
    if (!isUuid(id)) return `${where}: "id" is not a UUID`;
    if (ids.has(id)) return `${where} has the id of an earlier ${kind}: each record is held once`;
    ids.add(id);
    const other = more?.(record);
    if (other) return `${where}: ${other}`;
  }
  return undefined;
}

const PEER_LINK: Record<string, Check> = {
  id: isString,
  agent_a: isString,
  agent_b: isString,
  pair_key: isString,
  is_enabled: isBoolean,
  messages_per_window: isSeq,
  window_hours: isSeq,
  created_at: isString,
  updated_at: isString,
};
const FILE_NODE: Record<string, Check> = { id: isString, parent_id: orNull(isString), name: isString, path: isString, node_type: oneOf(['file', 'dir']), created_at: isString, updated_at: isString };

/** What the remote MCP tools keep (absent in older files): peer links between agents of the file, each agent's files. */
function remoteMcpProblem(value: Record<string, unknown>): string | undefined {
  const agents = value.persistentAgents as Record<string, unknown>[];
  const agentIds = new Set(agents.map((agent) => agent.id));
  if (value.peerLinks !== undefined) {
    if (!Array.isArray(value.peerLinks)) return '"peerLinks" is not a list';
    const problem = records(value.peerLinks, 'peer link', PEER_LINK, new Set(), (link) => (agentIds.has(link.agent_a) && agentIds.has(link.agent_b) ? undefined : 'it names an agent the file does not hold'));
    if (problem) return problem;
  }
  for (const [index, agent] of agents.entries()) {
    if (agent.webEndpointOwned !== undefined && !isBoolean(agent.webEndpointOwned)) return `persistent agent ${index + 1} of ${agents.length}: "webEndpointOwned" is not a boolean`;
    if (agent.files === undefined) continue;
    if (!Array.isArray(agent.files)) return `persistent agent ${index + 1} of ${agents.length}: "files" is not a list`;
    const problem = records(agent.files, `file of persistent agent ${index + 1}`, FILE_NODE, new Set(), (node) => (node.content === undefined || isString(node.content) ? undefined : '"content" is not base64 text'));
    if (problem) return problem;
  }
  return undefined;
}
