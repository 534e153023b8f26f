// How plan and apply show a plan: one block per agent that changes (+ create, ~ update, - delete),
// each field as `from -> to`, the charter as a line diff; then the counts. Every value comes from a
// file or the service, so each is shown JSON-quoted (a control character or a line break in a name
// cannot pass for a line of ours) and every line goes through ctx.out, which escapes the rest.
import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import { planRecord, type FieldChange, type Plan, type PlanAction } from '../../agents-as-code/index.js';

/** The plan as JSON (`--json`): the engine's record of it, as the library and the MCP server give it too. */
export const planJson = planRecord;

export const DIR_OPTION: OptionSpec = { flags: '--dir <dir>', description: 'the folder of agent files (default ./agents)', default: 'agents' };
export const PRUNE_OPTIONS: OptionSpec[] = [
  { flags: '--prune', description: 'also delete the agents apply created whose files are gone' },
  { flags: '--prune-agent <name>', description: 'also delete this agent (by name) whose file is gone, though apply did not create it (repeatable)', repeatable: true },
];

const SIGN = { create: '+', update: '~', delete: '-', unchanged: '=' } as const;

const shown = (value: unknown) => (value === undefined ? '(unset)' : JSON.stringify(value));

/** The plan's changes for people, on stdout; `brief` (plan --check) leaves out all but the differences. */
export function printPlan(ctx: Context, plan: Plan, brief: boolean): void {
  const { chalk } = ctx.out;
  const paint = { create: chalk.green, update: chalk.yellow, delete: chalk.red, unchanged: chalk.dim } as const;
  for (const action of plan.actions) {
    if (action.action === 'unchanged' && (brief || action.via === 'lock')) continue;
    const id = action.id ? ` (${action.id})` : '';
    const how = action.via === 'adopt' ? ', adopted: an agent of this name exists' : action.via === 'recover' ? ', created by a run that was stopped' : '';
    const verb = action.action === 'unchanged' ? 'record' : action.action;
    ctx.out.line(paint[action.action](`${SIGN[action.action]} ${verb} ${action.file} ${JSON.stringify(action.name)}${id}${how}`));
    for (const line of fieldLines(action)) ctx.out.line(line);
  }
  if (brief) return;
  for (const kept of plan.kept) {
    const why = kept.reason === 'adopted' ? `apply did not create it; --prune-agent ${JSON.stringify(kept.name)} deletes it` : 'its file is gone; --prune deletes it';
    ctx.out.line(chalk.dim(`  keep ${kept.file} ${JSON.stringify(kept.name)} (${kept.id}): ${why}`));
  }
  const { create, update, delete: remove, unchanged } = plan.counts;
  ctx.out.line(`${create + update + remove === 0 ? 'Nothing to do: ' : 'Plan: '}${create} to create, ${update} to update, ${remove} to delete, ${unchanged} unchanged.`);
}

function fieldLines(action: PlanAction): string[] {
  const lines = action.changes.filter((change) => change.field !== 'charter').map((change: FieldChange) =>
    action.action === 'create' ? `    ${change.field}: ${shown(change.to)}` : `    ${change.field}: ${shown(change.from)} -> ${shown(change.to)}`,
  );
  if (action.charterDiff && action.charterDiff.length > 0) {
    lines.push('    charter:');
    for (const line of action.charterDiff) lines.push(`      ${line}`);
  }
  return lines;
}
