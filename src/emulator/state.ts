import { randomUUID } from 'node:crypto';
import type { TaskStatus } from '../contract/enums.js';
import type { Clock } from './clock.js';
import { seededRandom } from './faults.js';
import { NewestFirst } from './newest-first.js';
import { drfTimestamp } from './timestamps.js';
import { USER_EMAIL } from './user.js';
import type { PersistentAgentRecord } from './persistent-state.js';
import type { MessageFields } from './timeline.js';

export type { TaskStatus };

/**
 * The string as one flat piece of memory. Node builds a UUID by joining many small strings, which V8
 * keeps as a tree of parts (~420 bytes more per id); an id kept for every record is copied flat once.
 */
function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

export { USER_EMAIL };
/** What the service charges a task by default, set when the task is created. */
export const DEFAULT_CREDITS_COST = '0.400';

export interface AgentRecord {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  seq: number;
}

export interface TaskRecord {
  id: string;
  /** The browser-use agent that runs the task; null for a standalone task (the user's own). */
  agent_id: string | null;
  prompt: string | null;
  requires_vision: boolean;
  output_schema: unknown;
  status: TaskStatus;
  created_at: string;
  updated_at: string;
  error_message: string | null;
  credits_cost: string | null;
  webhook: string | null;
  webhook_last_called_at: string | null;
  webhook_last_status_code: number | null;
  webhook_last_error: string | null;
  /** Set when the task completes; undefined before. */
  result: unknown;
  seq: number;
  /** The list item as JSON, made on first listing and dropped when the task changes (see changeTask). */
  listJson?: string;
}

/** What a create sets of a new task; the rest starts as the service starts it. */
export type NewTaskFields = Pick<TaskRecord, 'agent_id' | 'prompt'> & Partial<Pick<TaskRecord, 'requires_vision' | 'output_schema' | 'credits_cost' | 'webhook'>>;

/** The emulator's records as saved to a file (`--state FILE`). */
export interface StateSnapshot {
  version: 1;
  /** Which set of records this is (the EMULATOR_RUN_HEADER); absent in files of older emulators. */
  run?: string;
  seq: number;
  agents: AgentRecord[];
  hiddenAgents: string[];
  tasks: TaskRecord[];
  persistentAgents: PersistentAgentRecord[];
  messageTasks: [string, MessageTask][];
  intervalStarts: [string, number][];
  /** Peer-agent links (the remote MCP link tools); absent in files of older emulators. */
  peerLinks?: PeerLink[];
}

/** A peer-agent link (api/models.py AgentPeerLink); `pair_key` is the two ids sorted, joined by `::`. */
export interface PeerLink {
  id: string;
  agent_a: string;
  agent_b: string;
  pair_key: string;
  is_enabled: boolean;
  messages_per_window: number;
  window_hours: number;
  created_at: string;
  updated_at: string;
}

/** A web task started by a message to a persistent agent: whom to answer when it ends. */
export interface MessageTask {
  agentId: string;
  message: MessageFields;
}

/**
 * Every record of one emulator and the indexes that make a list page a slice: all of the user's
 * tasks, each agent's tasks, and the agent lists, each newest first. Routes read and change state
 * only through this object; time comes from its clock.
 */
/**
 * Limits of the account's plan, which the service applies and the emulator only when asked.
 * `agentLimit`: persistent agents alive at once (agents/services.py AgentService.get_agents_available);
 * `taskCredits`: task creates the credits pay for (TaskCreditService.calculate_available_tasks).
 */
export interface PlanLimits {
  agentLimit?: number;
  taskCredits?: number;
}

export class State {
  readonly agents = new Map<string, AgentRecord>();
  /** The listed browser-use agents (not those behind a deleted persistent agent). */
  readonly agentList = new NewestFirst<AgentRecord>();
  /** Browser-use agents behind a deleted persistent agent: their names stay taken, the agent routes answer 404. */
  readonly hiddenAgents = new Set<string>();
  readonly tasks = new Map<string, TaskRecord>();
  /** Tasks deleted through their route before they ended: they run on, out of sight (deleteTask). */
  readonly deletedRunning = new Map<string, TaskRecord>();
  /** Every task of the user (the standalone list shows them all). */
  readonly taskList = new NewestFirst<TaskRecord>();
  private readonly tasksByAgent = new Map<string, NewestFirst<TaskRecord>>();
  readonly persistentAgents = new Map<string, PersistentAgentRecord>();
  readonly persistentList = new NewestFirst<PersistentAgentRecord>();
  private readonly persistentByLegacy = new Map<string, PersistentAgentRecord>();
  /** Web tasks started by a message, by task id. */
  readonly messageTasks = new Map<string, MessageTask>();
  /** When each agent's interval schedule started counting (`agent id + schedule` -> ms since epoch). */
  readonly intervalStarts = new Map<string, number>();
  /** Peer-agent links by id. */
  readonly peerLinks = new Map<string, PeerLink>();
  /** Who waits for a new timeline event (the remote MCP wait tool): called with the agent's id. */
  private readonly timelineListeners = new Set<(agentId: string) => void>();
  private seq = 0;
  /** Counts changes (a save is due when it moved): new records, task changes, and touch(). */
  revision = 0;
  /** Which set of records this is: a new one at start (unless loaded from a state file) and at each reset. */
  run: string = randomUUID();
  /** Where ids come from: random, or a seeded sequence (the same ids run after run). */
  private random: (() => number) | undefined;
  /** The plan's limits the emulator applies (none by default): see PlanLimits. */
  plan: PlanLimits = {};
  /** Task creates the plan's credits paid for (counted only under a taskCredits limit). */
  creditsUsed = 0;

  constructor(
    readonly clock: Clock,
    seed?: number,
  ) {
    if (seed !== undefined) this.random = seededRandom(seed);
  }

  /** A new record id: a random UUID, or with a seed the next of a repeatable sequence (UUID v4 shaped). */
  newId(): string {
    if (!this.random) return flat(randomUUID());
    const hex = Array.from({ length: 32 }, () => Math.floor((this.random as () => number)() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
    const h = hex.join('');
    return flat(`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);
  }

  /** Forgets every record (the emulator's reset); ids continue their sequence. */
  clear(): void {
    for (const map of [this.agents, this.tasks, this.deletedRunning, this.persistentAgents, this.persistentByLegacy, this.messageTasks, this.intervalStarts, this.tasksByAgent, this.peerLinks] as Map<string, unknown>[]) map.clear();
    this.hiddenAgents.clear();
    this.creditsUsed = 0;
    for (const list of [this.agentList, this.taskList, this.persistentList] as NewestFirst<{ seq: number }>[]) list.clear();
    this.run = randomUUID();
  }

  /** Every record as JSON-ready data (see load). */
  snapshot(): StateSnapshot {
    return {
      version: 1,
      run: this.run,
      seq: this.seq,
      agents: [...this.agents.values()],
      hiddenAgents: [...this.hiddenAgents],
      tasks: [...this.tasks.values()].map(({ listJson: _listJson, ...task }) => task),
      persistentAgents: [...this.persistentAgents.values()],
      messageTasks: [...this.messageTasks],
      intervalStarts: [...this.intervalStarts],
      peerLinks: [...this.peerLinks.values()],
    };
  }

  /** Replaces every record with a snapshot's (indexes rebuilt in creation order). */
  load(snapshot: StateSnapshot): void {
    if (snapshot.version !== 1) throw new Error(`unknown emulator state version ${String(snapshot.version)}`);
    this.clear();
    if (typeof snapshot.run === 'string') this.run = snapshot.run;
    this.seq = snapshot.seq;
    for (const agent of snapshot.agents) {
      this.agents.set(agent.id, agent);
      if (!snapshot.hiddenAgents.includes(agent.id)) this.agentList.add(agent);
    }
    for (const id of snapshot.hiddenAgents) this.hiddenAgents.add(id);
    for (const task of [...snapshot.tasks].sort((a, b) => a.seq - b.seq)) {
      this.tasks.set(task.id, task);
      this.taskList.add(task);
      if (task.agent_id !== null) this.tasksOf(task.agent_id).add(task);
    }
    for (const agent of [...snapshot.persistentAgents].sort((a, b) => a.seq - b.seq)) this.addPersistentAgent(agent);
    for (const [id, origin] of snapshot.messageTasks) this.messageTasks.set(id, origin);
    for (const [key, start] of snapshot.intervalStarts) this.intervalStarts.set(key, start);
    for (const link of snapshot.peerLinks ?? []) this.peerLinks.set(link.id, link);
  }

  /** Calls `listener` with the agent's id whenever an event joins a timeline; returns the unsubscribe. */
  onTimelineEvent(listener: (agentId: string) => void): () => void {
    this.timelineListeners.add(listener);
    return () => this.timelineListeners.delete(listener);
  }

  /** Tells the listeners that an event joined the agent's timeline. */
  timelineEventAdded(agentId: string): void {
    for (const listener of [...this.timelineListeners]) listener(agentId);
  }

  nextSeq(): number {
    this.revision++;
    return ++this.seq;
  }

  /** Notes a change made to a record in place (a rename, a webhook's outcome): the next periodic save writes it. */
  touch(): void {
    this.revision++;
  }

  private lastStamp: { time: number; text: string } | undefined;

  /** The clock's time as the service writes it (DRF's DateTimeField: `Z`, microseconds unless zero); records made in the same millisecond share the text. */
  now(): string {
    const time = this.clock.now();
    if (this.lastStamp?.time !== time) this.lastStamp = { time, text: drfTimestamp(time) };
    return this.lastStamp.text;
  }

  newAgent(name: string): AgentRecord {
    const stamp = this.now();
    const agent = { id: this.newId(), name, created_at: stamp, updated_at: stamp, seq: this.nextSeq() };
    this.agents.set(agent.id, agent);
    this.agentList.add(agent);
    return agent;
  }

  /** Deletes a browser-use agent with the persistent agents built on it and its tasks. */
  deleteAgent(agent: AgentRecord): void {
    this.agents.delete(agent.id);
    this.hiddenAgents.delete(agent.id);
    this.agentList.remove(agent);
    for (const persistent of [...this.persistentAgents.values()]) {
      if (persistent.browser_use_agent_id === agent.id) this.deletePersistentAgent(persistent);
    }
    for (const task of [...this.tasksOf(agent.id).oldest()]) this.deleteTask(task);
    this.tasksByAgent.delete(agent.id);
  }

  newTask(fields: NewTaskFields): TaskRecord {
    const stamp = this.now();
    // Every field named, in one order: one shape for every task a create makes (a spread of `fields` cost ~1.5 us).
    const task: TaskRecord = {
      id: this.newId(),
      agent_id: fields.agent_id,
      prompt: fields.prompt,
      requires_vision: fields.requires_vision ?? false,
      output_schema: fields.output_schema ?? null,
      status: 'pending',
      created_at: stamp,
      updated_at: stamp,
      error_message: null,
      credits_cost: fields.credits_cost === undefined ? DEFAULT_CREDITS_COST : fields.credits_cost,
      webhook: fields.webhook ?? null,
      webhook_last_called_at: null,
      webhook_last_status_code: null,
      webhook_last_error: null,
      result: undefined,
      seq: this.nextSeq(),
    };
    this.tasks.set(task.id, task);
    this.taskList.add(task);
    if (task.agent_id !== null) this.tasksOf(task.agent_id).add(task);
    return task;
  }

  /** Changes a task (every change goes through here, so its cached list item stays true) and stamps updated_at. */
  changeTask(task: TaskRecord, changes: Partial<TaskRecord>): void {
    this.revision++;
    Object.assign(task, changes, { updated_at: this.now(), listJson: undefined });
  }

  /** Moves a task to another browser-use agent (or to none). */
  moveTask(task: TaskRecord, agentId: string | null): void {
    if (task.agent_id === agentId) return;
    if (task.agent_id !== null) this.tasksByAgent.get(task.agent_id)?.remove(task);
    task.agent_id = agentId;
    if (agentId !== null) this.tasksOf(agentId).add(task);
    this.changeTask(task, {});
  }

  /** The task's list item, serialized: a list page joins these instead of serializing every item again. */
  taskListItemJson(task: TaskRecord): string {
    return (task.listJson ??= JSON.stringify(taskListItem(task)));
  }

  /**
   * Deletes a task from every route. `keepRunning`: as the task DELETE route does (perform_destroy
   * only marks it is_deleted), it still runs to its end and sends its webhook, unseen.
   */
  deleteTask(task: TaskRecord, keepRunning = false): void {
    if (keepRunning && !['completed', 'failed', 'cancelled'].includes(task.status)) this.deletedRunning.set(task.id, task);
    this.tasks.delete(task.id);
    this.taskList.remove(task);
    if (task.agent_id !== null) this.tasksByAgent.get(task.agent_id)?.remove(task);
    this.messageTasks.delete(task.id);
  }

  /** The tasks of one browser-use agent, newest first. */
  tasksOf(agentId: string): NewestFirst<TaskRecord> {
    let index = this.tasksByAgent.get(agentId);
    if (!index) {
      index = new NewestFirst<TaskRecord>();
      this.tasksByAgent.set(agentId, index);
    }
    return index;
  }

  /** The persistent agent built on a browser-use agent, if any. */
  persistentOf(browserUseAgentId: string): PersistentAgentRecord | undefined {
    return this.persistentByLegacy.get(browserUseAgentId);
  }

  addPersistentAgent(agent: PersistentAgentRecord): void {
    this.persistentByLegacy.set(agent.browser_use_agent_id, agent);
    this.persistentAgents.set(agent.id, agent);
    this.persistentList.add(agent);
  }

  /** Deletes a persistent agent (a soft delete: its browser-use agent stays, hidden, with its tasks). */
  deletePersistentAgent(agent: PersistentAgentRecord): void {
    // Its peer links go with it (soft_delete's apply_persisted_soft_delete_side_effects: AgentPeerLink.remove_for_agent).
    for (const link of [...this.peerLinks.values()]) if (link.agent_a === agent.id || link.agent_b === agent.id) this.peerLinks.delete(link.id);
    this.persistentByLegacy.delete(agent.browser_use_agent_id);
    this.persistentAgents.delete(agent.id);
    this.persistentList.remove(agent);
    const legacy = this.agents.get(agent.browser_use_agent_id);
    if (legacy && !this.hiddenAgents.has(legacy.id)) {
      this.hiddenAgents.add(legacy.id);
      this.agentList.remove(legacy);
    }
  }
}

/**
 * A browser-use agent as listed: its descriptions come from the persistent agent built on it (its
 * short description, else its charter, at most 200 characters); a bare one is "initializing".
 */
export function agentListItem(agent: AgentRecord, persistent?: PersistentAgentRecord) {
  const short = oneLine(persistent?.short_description ?? '');
  const charter = oneLine(persistent?.charter ?? '');
  const [listing, source] = short ? [short, 'short'] : charter ? [charter, 'charter'] : ['Agent is initializing…', 'placeholder'];
  return {
    id: agent.id,
    name: agent.name,
    created_at: agent.created_at,
    listing_description: cut(listing, 200),
    listing_description_source: source,
    mini_description: 'Agent',
    mini_description_source: 'placeholder',
  };
}

export function agentDetail(agent: AgentRecord, persistent?: PersistentAgentRecord) {
  const { id, name, created_at, ...descriptions } = agentListItem(agent, persistent);
  return { id, user_email: USER_EMAIL, name, created_at, updated_at: agent.updated_at, ...descriptions };
}

const oneLine = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** The fields the task list item and the task record share, in the service's order. */
function taskCore(task: TaskRecord) {
  return {
    // The service's serializer skips `agent_id` when the task has no agent (a standalone task).
    ...(task.agent_id === null ? {} : { agent_id: task.agent_id }),
    prompt: task.prompt,
    requires_vision: task.requires_vision,
    output_schema: task.output_schema,
    status: task.status,
    created_at: task.created_at,
    updated_at: task.updated_at,
  };
}

/**
 * The task record: a standalone task has `agent: null` and no `agent_id`; `organization_id` is
 * skipped too, as the service does for an owner without an organization.
 */
export function taskDetail(task: TaskRecord) {
  return {
    id: task.id,
    agent: task.agent_id,
    ...taskCore(task),
    error_message: task.error_message,
    credits_cost: task.credits_cost,
    webhook: task.webhook,
    webhook_last_called_at: task.webhook_last_called_at,
    webhook_last_status_code: task.webhook_last_status_code,
    webhook_last_error: task.webhook_last_error,
  };
}

export function taskListItem(task: TaskRecord) {
  return { id: task.id, ...taskCore(task), credits_cost: task.credits_cost, webhook: task.webhook };
}
