import { randomUUID } from 'node:crypto';
import type { PersistentAgentRecord } from './persistent-state.js';

export const USER_EMAIL = 'emulator@example.com';

export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

export interface AgentRecord {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  seq: number;
}

export interface TaskRecord {
  id: string;
  agent_id: string;
  /** True for tasks created on the agent-scoped routes (they 404 under any other agent). */
  prompt: string | null;
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
  result: unknown;
  seq: number;
}

/** The in-memory records of one emulator, newest-first ordering by creation sequence. */
export class State {
  readonly agents = new Map<string, AgentRecord>();
  readonly tasks = new Map<string, TaskRecord>();
  /** Persistent agents (see persistent-routes.ts); each is built on one of `agents`. */
  readonly persistentAgents = new Map<string, PersistentAgentRecord>();
  /** The authenticated user's own browser-use agent, which runs standalone tasks (not listed). */
  readonly userAgentId = randomUUID();
  private seq = 0;

  nextSeq(): number {
    return ++this.seq;
  }

  newestFirst<T extends { seq: number }>(items: Iterable<T>): T[] {
    return [...items].sort((a, b) => b.seq - a.seq);
  }
}

export function now(): string {
  return new Date().toISOString();
}

export function agentListItem(agent: AgentRecord) {
  return {
    id: agent.id,
    name: agent.name,
    created_at: agent.created_at,
    listing_description: `Emulated browser-use agent "${agent.name}".`,
    mini_description: 'Emulated agent',
    listing_description_source: 'emulator',
    mini_description_source: 'emulator',
  };
}

export function agentDetail(agent: AgentRecord) {
  return { ...agentListItem(agent), user_email: USER_EMAIL, updated_at: agent.updated_at };
}

export function taskDetail(task: TaskRecord) {
  return {
    id: task.id,
    agent: task.agent_id,
    agent_id: task.agent_id,
    organization_id: null,
    prompt: task.prompt,
    output_schema: task.output_schema,
    status: task.status,
    created_at: task.created_at,
    updated_at: task.updated_at,
    error_message: task.error_message,
    credits_cost: task.credits_cost,
    webhook: task.webhook,
    webhook_last_called_at: task.webhook_last_called_at,
    webhook_last_status_code: task.webhook_last_status_code,
    webhook_last_error: task.webhook_last_error,
  };
}

export function taskListItem(task: TaskRecord) {
  const { id, agent_id, prompt, output_schema, status, created_at, updated_at, credits_cost, webhook } = task;
  return { id, agent_id, prompt, output_schema, status, created_at, updated_at, credits_cost, webhook };
}
