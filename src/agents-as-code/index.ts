// Agents as code, the operations every face calls: plan a folder against a service, apply it (under
// the folder's lock, confirmed by the caller), export a service into a folder.
import { join } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { LedgerLock, type LockOwner } from '../batch/lock.js';
import { realPath } from '../contract/real-path.js';
import { applyPlan, type ApplyHooks, type ApplyOutcome } from './apply.js';
import { parseAgentFile } from './files.js';
import { readAgentFolder, type DesiredAgent } from './folder.js';
import { IdentityFile, serviceKey } from './identity.js';
import { makePlan, type Plan, type PruneRequest } from './plan.js';

export { hasChanges, type Plan, type PlanAction, type FieldChange, type KeptAgent, type PruneRequest } from './plan.js';
export type { ApplyOutcome, ApplyHooks, StepPhase } from './apply.js';
export { planRecord, type PlanRecord } from './record.js';

/** The file beside the agent files that keeps a second apply or export of the folder out. */
export const FOLDER_LOCK = '.agentctl-apply.lock';

export interface PlanRequest {
  /** The folder of agent files (its lock file says which agent each file is). */
  dir: string;
  prune?: PruneRequest;
  signal?: AbortSignal;
}

/** What `dir` says compared with the service. Read-only. */
export async function planFolder(client: ApiClient, request: PlanRequest): Promise<Plan> {
  const dir = await realPath(request.dir);
  const [desired, identities] = await Promise.all([readAgentFolder(dir), IdentityFile.read(dir)]);
  const service = serviceKey(client.baseUrl);
  return makePlan(client, { service, desired, entries: identities.entries(service), prune: request.prune, signal: request.signal });
}

/** Files given as text (no folder, so no lock file: each is matched with its agent by name). Read-only. */
export async function planFiles(client: ApiClient, files: ReadonlyArray<{ file: string; text: string }>, signal?: AbortSignal): Promise<Plan> {
  const desired: DesiredAgent[] = files.map(({ file, text }) => ({ file, spec: parseAgentFile(text, file) }));
  return makePlan(client, { service: serviceKey(client.baseUrl), desired, entries: new Map(), signal });
}

export interface ApplyRequest extends PlanRequest {
  /** Who holds the folder's lock while apply runs. */
  owner: LockOwner;
  /** Shown the plan (with changes) before anything is sent: false sends nothing. */
  confirm(plan: Plan): Promise<boolean>;
  hooks?: ApplyHooks;
}

export interface ApplyResult {
  plan: Plan;
  /** Undefined when there was nothing to do or the plan was not confirmed. */
  outcomes?: ApplyOutcome[];
}

/**
 * Plans and applies `dir` while holding its lock: one lock per real folder, so a second apply (by
 * any name or link of the folder) is refused while one runs, and what it planned is still true
 * when it sends.
 */
export async function applyFolder(client: ApiClient, request: ApplyRequest): Promise<ApplyResult> {
  const dir = await realPath(request.dir);
  const lock = await lockFolder(dir, request.owner);
  try {
    const [desired, identities] = await Promise.all([readAgentFolder(dir), IdentityFile.read(dir)]);
    const service = serviceKey(client.baseUrl);
    const plan = await makePlan(client, { service, desired, entries: identities.entries(service), prune: request.prune, signal: request.signal });
    const work = plan.actions.some((action) => action.action !== 'unchanged' || action.via !== 'lock') || plan.forgotten.length > 0;
    if (!work || !(await request.confirm(plan))) return { plan };
    const check = () => {
      lock.confirm();
      request.hooks?.check?.();
    };
    const outcomes = await applyPlan({ client, plan, identities, signal: request.signal, hooks: { ...request.hooks, check } });
    return { plan, outcomes };
  } finally {
    lock.release();
  }
}

/** Takes the folder's lock (beside its real path: every name of the folder meets the one lock). */
export function lockFolder(dir: string, owner: LockOwner): Promise<LedgerLock> {
  const words = { thing: `the agent folder ${dir}`, harm: 'two applies at once could create an agent twice', elsewhere: '' };
  return LedgerLock.acquire(dir, { ...owner, words }, join(dir, FOLDER_LOCK));
}
