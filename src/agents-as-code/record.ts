// A plan as plain data, the one shape every face gives it: `--json`, the library, the MCP tools.
import type { Plan } from './plan.js';
import type { PlanRecord } from './plan-record.js';

export type { PlanRecord };

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
