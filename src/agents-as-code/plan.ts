// What apply would do: each file matched with its agent on one service (by the lock file, else by
// name), then compared field by field. Read-only: plan sends only GETs and writes nothing.
import type { ApiClient } from '../api/client.js';
import { InputError, UsageError } from '../errors.js';
import { pyStrip } from '../schedule/py.js';
import { lineDiff, type DiffLine } from './diff.js';
import type { AgentSpec } from './files.js';
import type { DesiredAgent } from './folder.js';
import type { Identities, IdentityEntry } from './identity.js';
import { DETAIL_FIELDS, FileFieldError, listLive, readDetails, specBody, type LiveAgent } from './service.js';
export { listLive };

export type ActionKind = 'create' | 'update' | 'unchanged' | 'delete';

/** One field that differs: the service's value and the file's. `from` is absent on a create. */
export interface FieldChange {
  field: string;
  from?: unknown;
  to: unknown;
}

export interface PlanAction {
  action: ActionKind;
  file: string;
  name: string;
  id?: string;
  /** How the file found its agent: the lock file, an existing agent of its name, or a create a killed run left pending. */
  via?: 'lock' | 'adopt' | 'recover';
  /** Whether the lock file records the agent as made by apply (prune deletes only those). */
  created: boolean;
  changes: FieldChange[];
  charterDiff?: DiffLine[];
  /** The request body (create: every field the file has; update: the fields that differ). */
  body?: Record<string, unknown>;
  /** The lock entry to keep for it (its preferred_contact record). */
  entry?: IdentityEntry;
  /** Lock entries of removed files this action takes over (a renamed file). */
  replaces?: string[];
}

/** An agent recorded for a file that is gone, left on the service. */
export interface KeptAgent {
  file: string;
  name: string;
  id: string;
  /** adopted: apply did not create it (only deleted when named); not-pruned: apply created it, prune was not asked. */
  reason: 'adopted' | 'not-pruned';
}

export interface Plan {
  service: string;
  actions: PlanAction[];
  kept: KeptAgent[];
  /** Lock entries to drop: their files are gone and so are their agents. */
  forgotten: string[];
  counts: Record<ActionKind, number>;
}

export interface PruneRequest {
  /** Delete agents apply created whose files are gone. */
  created: boolean;
  /** Also delete these agents (by name) whose files are gone, though apply did not create them. */
  names: readonly string[];
}

export interface PlanInput {
  service: string;
  desired: DesiredAgent[];
  /** The service's agents, when their list was started before the files were read. */
  live?: Promise<Map<string, LiveAgent>>;
  entries: Identities;
  prune?: PruneRequest;
  signal?: AbortSignal;
}

/** Whether the plan changes anything on the service. */
export function hasChanges(plan: Plan): boolean {
  return plan.counts.create + plan.counts.update + plan.counts.delete > 0;
}

/** Reads the service and compares it with the files. */
export async function makePlan(client: ApiClient, input: PlanInput): Promise<Plan> {
  const live = await (input.live ?? listLive(client, input.signal));
  const matches = matchFiles(input, live);
  const needDetail = matches.filter((match) => match.agent && DETAIL_FIELDS.some((field) => match.desired.spec[field] !== undefined)).map((match) => match.agent!.id);
  await readDetails(client, live, needDetail, input.signal);
  const actions = matches.map((match) => toAction(match, match.agent && live.get(match.agent.id)));
  const { deletes, kept, forgotten } = orphans(input, live, matches);
  actions.push(...deletes);
  actions.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const counts: Record<ActionKind, number> = { create: 0, update: 0, unchanged: 0, delete: 0 };
  for (const action of actions) counts[action.action]++;
  return { service: input.service, actions, kept, forgotten, counts };
}

interface Match {
  desired: DesiredAgent;
  entry?: IdentityEntry;
  agent?: LiveAgent;
  via?: PlanAction['via'];
  created: boolean;
  replaces: string[];
}

/** Each file's agent: its lock entry's, else the one agent of its name no other file holds. */
function matchFiles(input: PlanInput, live: Map<string, LiveAgent>): Match[] {
  const files = new Set(input.desired.map((desired) => desired.file));
  const held = new Set<string>();
  // An agent recorded for a file that is gone may be taken by name (the file was renamed).
  const goneById = new Map<string, string>();
  for (const [file, entry] of input.entries) {
    if (!entry.id || !live.has(entry.id)) continue;
    if (files.has(file)) held.add(entry.id);
    else goneById.set(entry.id, file);
  }
  const byName = new Map<string, LiveAgent[]>();
  for (const agent of live.values()) if (!held.has(agent.id)) byName.set(agent.name, [...(byName.get(agent.name) ?? []), agent]);
  return input.desired.map((desired): Match => {
    const entry = input.entries.get(desired.file);
    const recorded = entry?.id ? live.get(entry.id) : undefined;
    if (recorded) return { desired, entry, agent: recorded, via: 'lock', created: entry!.created, replaces: [] };
    const name = entry?.pending ? (entry.name ?? desired.spec.name) : desired.spec.name;
    const candidates = byName.get(name) ?? [];
    if (candidates.length > 1) throw ambiguous(desired.file, name, candidates);
    const agent = candidates[0];
    if (!agent) return { desired, entry, created: true, replaces: [] };
    byName.delete(name);
    const renamedFrom = goneById.get(agent.id);
    const created = entry?.pending === true || (renamedFrom !== undefined && input.entries.get(renamedFrom)!.created);
    // A renamed file takes its old entry along (what it recalls of preferred_contact too).
    const kept = renamedFrom !== undefined && !entry?.pending ? input.entries.get(renamedFrom) : entry;
    return { desired, entry: kept, agent, via: entry?.pending ? 'recover' : 'adopt', created, replaces: renamedFrom ? [renamedFrom] : [] };
  });
}

function ambiguous(file: string, name: string, agents: LiveAgent[]): UsageError {
  return new UsageError(
    `${file}: ${agents.length} agents on the service are named "${name}" (${agents.map((agent) => agent.id).join(', ')}): which one the file means cannot be told by name`,
    `rename or delete the ones the file does not mean (agentctl persistent update ID --name NEW), then rerun; apply records the agent's id in the lock file`,
  );
}

/** The comparison of one file with its agent (none: a create). */
function toAction(match: Match, agent: LiveAgent | undefined): PlanAction {
  const { file, spec } = match.desired;
  const base = { file, name: spec.name, created: match.created, replaces: match.replaces };
  const bodyOf = (fields?: Set<string>) => {
    try {
      return specBody(spec, fields) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof InputError) throw new FileFieldError(file, error);
      throw error;
    }
  };
  if (!agent) {
    const changes = createdFields(spec);
    return { ...base, action: 'create', changes, charterDiff: lineDiff('', spec.charter), body: bodyOf(), entry: { created: true } };
  }
  const changes = fieldChanges(spec, agent, match.entry);
  const charter = changes.some((change) => change.field === 'charter') ? lineDiff(pyStrip(agent.charter), spec.charter) : undefined;
  const entry: IdentityEntry = { id: agent.id, created: match.created, ...(match.entry?.contact ? { contact: match.entry.contact } : {}) };
  const action: PlanAction = { ...base, action: changes.length > 0 ? 'update' : 'unchanged', id: agent.id, via: match.via, changes, entry };
  if (charter) action.charterDiff = charter;
  if (changes.length > 0) action.body = bodyOf(new Set(changes.map((change) => change.field)));
  return action;
}

/** A file's fields as the service names them, for a create's lines. */
function createdFields(spec: AgentSpec): FieldChange[] {
  return (Object.keys(spec) as Array<keyof AgentSpec>).filter((field) => spec[field] !== undefined && field !== 'charter').map((field) => ({ field, to: spec[field] }));
}

/** The managed fields whose values differ, in the file's words. */
function fieldChanges(spec: AgentSpec, agent: LiveAgent, entry: IdentityEntry | undefined): FieldChange[] {
  const changes: FieldChange[] = [];
  const compare = (field: string, wanted: unknown, actual: unknown) => {
    if (wanted !== undefined && wanted !== actual) changes.push({ field, from: actual ?? null, to: wanted });
  };
  compare('name', spec.name, pyStrip(agent.name));
  compare('charter', spec.charter, pyStrip(agent.charter));
  compare('schedule', spec.schedule === undefined ? undefined : spec.schedule === null || pyStrip(spec.schedule) === '' ? null : spec.schedule, agent.schedule);
  compare('active', spec.active, agent.is_active);
  compare('whitelist_policy', spec.whitelist_policy, agent.whitelist_policy);
  compare('contact_approval_mode', spec.contact_approval_mode, agent.contact_approval_mode);
  compare('preferred_llm_tier', spec.preferred_llm_tier, agent.preferred_llm_tier);
  compare('daily_credit_limit', spec.daily_credit_limit, agent.daily_credit_limit);
  compare('proactive', spec.proactive, agent.proactive_opt_in);
  const contact = spec.preferred_contact;
  if (contact !== undefined && !contactMatches(contact, agent.preferred_contact_endpoint_id, entry)) {
    changes.push({ field: 'preferred_contact', from: agent.preferred_contact_endpoint_id, to: contact });
  }
  return changes;
}

/**
 * email or sms name a kind of endpoint, while the service answers with the endpoint's id: the
 * lock file recalls which id the service chose when the file's value was last applied.
 */
function contactMatches(wanted: string | null, endpoint: string | null, entry: IdentityEntry | undefined): boolean {
  if (wanted === null || !/^(email|sms)$/.test(wanted)) return wanted === endpoint;
  return entry?.contact?.value === wanted && entry.contact.endpoint === endpoint;
}

/** Lock entries whose files are gone: deleted (prune), kept (said why), or forgotten (agent gone too). */
function orphans(input: PlanInput, live: Map<string, LiveAgent>, matches: Match[]) {
  const files = new Set(input.desired.map((desired) => desired.file));
  const takenOver = new Set(matches.flatMap((match) => match.replaces));
  const deletes: PlanAction[] = [];
  const kept: KeptAgent[] = [];
  const forgotten: string[] = [];
  for (const [file, entry] of input.entries) {
    if (files.has(file) || takenOver.has(file)) continue;
    const agent = entry.id ? live.get(entry.id) : undefined;
    if (!agent) {
      forgotten.push(file);
      continue;
    }
    const asked = input.prune?.names.includes(agent.name) === true;
    if ((input.prune?.created && entry.created) || asked) {
      deletes.push({ action: 'delete', file, name: agent.name, id: agent.id, created: entry.created, changes: [] });
    } else {
      kept.push({ file, name: agent.name, id: agent.id, reason: entry.created ? 'not-pruned' : 'adopted' });
    }
  }
  return { deletes, kept, forgotten };
}
