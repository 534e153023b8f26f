// A plan as plain data, the one shape every face gives it: `--json`, the library, the MCP tools.
import type { Plan } from './plan.js';

export interface PlanRecord {
  service: string;
  /** Whether apply would change anything on the service. */
  changes: boolean;
  counts: Plan['counts'];
  actions: Array<{
    action: 'create' | 'update' | 'unchanged' | 'delete';
    file: string;
    name: string;
    id: string | null;
    /** How the file found its agent: lock (the lock file), adopt (by name), recover (a create a stopped run left pending); null for a create. */
    via: 'lock' | 'adopt' | 'recover' | null;
    created_by_apply: boolean;
    /** `from` is absent on a create. */
    changes: Array<{ field: string; from?: unknown; to: unknown }>;
    /** The charter's line diff: '-' the service's lines, '+' the file's, ' ' context, '…' lines left out. */
    charter_diff: string[];
  }>;
  /** Agents recorded for files that are gone, left on the service. */
  kept: Plan['kept'];
}

export function planRecord(plan: Plan): PlanRecord {
  return {
    service: plan.service,
    changes: plan.counts.create + plan.counts.update + plan.counts.delete > 0,
    counts: plan.counts,
    actions: plan.actions.map((action) => ({
      action: action.action,
      file: action.file,
      name: action.name,
      id: action.id ?? null,
      via: action.via ?? null,
      created_by_apply: action.created,
      changes: action.changes.map((change) => ({ field: change.field, ...(action.action === 'create' ? {} : { from: change.from }), to: change.to })),
      charter_diff: action.charterDiff ?? [],
    })),
    kept: plan.kept,
  };
}
