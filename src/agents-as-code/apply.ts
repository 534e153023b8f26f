// Making the service match the files: the plan's steps one at a time, each written down in the lock
// file (identity.ts) so that a run killed at any point, then run again, creates each agent once.
// A create is recorded as pending before it is sent; the next run finds a pending agent by name
// (plan.ts, `recover`) rather than sending the create again. Updates (PATCH) and deletes send the
// same request again harmlessly, so they are recorded after their answer.
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { persistentAgents } from '../api/persistent-agents.js';
import type { PersistentAgentBody } from '../api/schemas/persistent-agent.js';
import type { IdentityEntry, IdentityFile } from './identity.js';
import type { Plan, PlanAction } from './plan.js';

/** Where a step is: about to send its request, or answered but not yet recorded. */
export type StepPhase = 'before-send' | 'sent';

export interface ApplyHooks {
  /** Called around each request (tests end the run here to play a kill at that point). */
  onStep?(step: number, phase: StepPhase, action: PlanAction): void | Promise<void>;
  /** Each step done, for progress. */
  onDone?(action: PlanAction, id: string | undefined): void;
  /** Called before every request and lock-file write: throws once the run must not go on (its lock lost, a signal). */
  check?(): void;
}

export interface ApplyInput {
  client: ApiClient;
  plan: Plan;
  identities: IdentityFile;
  signal?: AbortSignal;
  hooks?: ApplyHooks;
}

/** What apply did, step by step. */
export interface ApplyOutcome {
  action: PlanAction['action'];
  file: string;
  name: string;
  id?: string;
}

/** Runs the plan's steps in order, stopping at the first failure (what was done stays recorded). */
export async function applyPlan(input: ApplyInput): Promise<ApplyOutcome[]> {
  const { plan, identities } = input;
  const done: ApplyOutcome[] = [];
  let step = 0;
  for (const action of plan.actions) {
    input.hooks?.check?.();
    input.signal?.throwIfAborted();
    const id = await runStep(input, action, ++step);
    done.push({ action: action.action, file: action.file, name: action.name, ...(id ? { id } : {}) });
    input.hooks?.onDone?.(action, id);
  }
  for (const file of plan.forgotten) identities.remove(plan.service, file);
  await identities.save(true);
  return done;
}

async function runStep(input: ApplyInput, action: PlanAction, step: number): Promise<string | undefined> {
  switch (action.action) {
    case 'create':
      return create(input, action, step);
    case 'update':
      return update(input, action, step);
    case 'delete':
      return remove(input, action, step);
    case 'unchanged':
      // Adopted or recovered without a change: only the lock file learns the id.
      if (action.via !== 'lock' || (action.replaces?.length ?? 0) > 0) await record(input, action, action.entry!);
      return action.id;
  }
}

async function create(input: ApplyInput, action: PlanAction, step: number): Promise<string> {
  const { plan, identities } = input;
  identities.set(plan.service, action.file, { pending: true, name: action.name, created: true });
  input.hooks?.check?.();
  await identities.save();
  await input.hooks?.onStep?.(step, 'before-send', action);
  let agent;
  try {
    agent = await persistentAgents.create(input.client, action.body as PersistentAgentBody, { signal: input.signal });
  } catch (error) {
    // Answered with a refusal: nothing was made, so nothing is pending. Anything else (no answer, a
    // 5xx) may have made it: the pending entry stays, and the next run looks for it by name.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
      identities.remove(plan.service, action.file);
      await identities.save();
    }
    throw error;
  }
  await input.hooks?.onStep?.(step, 'sent', action);
  await record(input, action, { id: agent.id, created: true, ...contactRecord(action, agent) });
  const rest = ignoredOnCreate(action.body ?? {}, agent as unknown as Record<string, unknown>);
  if (Object.keys(rest).length > 0) await persistentAgents.update(input.client, agent.id, rest as PersistentAgentBody, { signal: input.signal });
  return agent.id;
}

/** Fields a create answer shows otherwise than sent: the service's create passes proactive_opt_in (and so on) to nobody. */
const SETTLED_FIELDS = ['is_active', 'whitelist_policy', 'contact_approval_mode', 'proactive_opt_in', 'daily_credit_limit', 'preferred_llm_tier'];

/** The body's fields the new agent does not have as sent, to send again as an update (a PATCH may be repeated). */
function ignoredOnCreate(body: Record<string, unknown>, agent: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SETTLED_FIELDS.filter((field) => body[field] !== undefined && field in agent && agent[field] !== body[field]).map((field) => [field, body[field]]));
}

async function update(input: ApplyInput, action: PlanAction, step: number): Promise<string> {
  await input.hooks?.onStep?.(step, 'before-send', action);
  const agent = await persistentAgents.update(input.client, action.id!, action.body as PersistentAgentBody, { signal: input.signal });
  await input.hooks?.onStep?.(step, 'sent', action);
  await record(input, action, { ...action.entry!, id: agent.id, ...contactRecord(action, agent) });
  return agent.id;
}

async function remove(input: ApplyInput, action: PlanAction, step: number): Promise<string> {
  await input.hooks?.onStep?.(step, 'before-send', action);
  try {
    await persistentAgents.delete(input.client, action.id!, { signal: input.signal });
  } catch (error) {
    // Gone already (a run killed after its delete): what the step wanted.
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  await input.hooks?.onStep?.(step, 'sent', action);
  input.identities.remove(input.plan.service, action.file);
  input.hooks?.check?.();
  await input.identities.save();
  return action.id!;
}

/** Writes the action's entry (and drops the entries of the files it took over). */
async function record(input: ApplyInput, action: PlanAction, entry: IdentityEntry): Promise<void> {
  const { plan, identities } = input;
  for (const file of action.replaces ?? []) identities.remove(plan.service, file);
  identities.set(plan.service, action.file, entry);
  input.hooks?.check?.();
  await identities.save();
}

/** The endpoint the service chose for an email or sms preferred contact, for the next plan to compare against. */
function contactRecord(action: PlanAction, agent: { preferred_contact_endpoint_id?: string | null }): Pick<IdentityEntry, 'contact'> {
  const value = action.body?.preferred_contact_endpoint;
  if (typeof value !== 'string' || !/^(email|sms)$/.test(value)) return action.entry?.contact ? { contact: action.entry.contact } : {};
  return { contact: { value, endpoint: agent.preferred_contact_endpoint_id ?? null } };
}
