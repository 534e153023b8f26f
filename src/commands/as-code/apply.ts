// `agentctl apply`: makes the service match the agent files, after showing the plan and asking.
import { applyFolder, hasChanges, type Plan, type PlanAction } from '../../agents-as-code/index.js';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { ExitCode, ExitError } from '../../errors.js';
import { YES_OPTION } from '../common/confirm-delete.js';
import { DIR_OPTION, PRUNE_OPTIONS, planJson, printPlan } from './show.js';

const DONE = { create: 'Created', update: 'Updated', delete: 'Deleted', unchanged: 'Recorded' } as const;

export const command = defineCommand({
  name: 'apply',
  summary: 'make the service match the agent files in --dir (creates, updates; deletes only with --prune)',
  options: [DIR_OPTION, YES_OPTION, ...PRUNE_OPTIONS],
  notes: `Plans as \`agentctl plan\` does, shows the plan and asks "[y/N]" on a terminal; without one
(CI) it needs --yes. Deletes happen only with --prune (agents apply created whose files are gone) or
--prune-agent NAME (an agent it adopted), and at a terminal only after you type "delete N".
Each step is recorded in the folder's agentctl.lock.json as it happens (commit that file with the
agents): a create is written down before it is sent, so an apply that is killed and run again
finds the agent by name rather than creating it twice. One apply at a time holds a folder, under
any name or link of it (its lock, .agentctl-apply.lock): a second one exits 2 before any request.
A file whose agent name already exists on the service adopts that agent (two agents of that name:
refused, exit 2). See docs/agents-as-code.md.`,
  exitCodes: { ...SERVICE_EXITS, 2: 'a usage or file error, a declined prompt, or the folder in use by another apply' },
  examples: [
    'agentctl apply --dir agents                    # shows the plan and asks [y/N]; exit 2 without a terminal',
    'agentctl apply --dir agents --yes              # in CI: creates and updates the agents',
    'agentctl apply --dir agents --prune --yes      # also deletes the agents it created whose files were removed',
  ],
  parse: (input) => ({
    dir: input.string('dir') ?? 'agents',
    yes: input.flag('yes'),
    prune: { created: input.flag('prune'), names: input.list('pruneAgent') },
  }),
  async run({ dir, yes, prune }, ctx) {
    const client = await ctx.client();
    ctx.onInterrupt('Stopped. What was done is recorded in agentctl.lock.json: run the same apply again to finish (nothing is created twice).');
    const result = await applyFolder(client, {
      dir,
      prune,
      signal: ctx.signal,
      owner: { process: ctx.io.process, clock: ctx.clock, signal: ctx.signal, say: (message) => ctx.out.info(message) },
      confirm: (plan) => confirmPlan(ctx, plan, yes),
      hooks: { onDone: (action, id) => done(ctx, action, id) },
    });
    ctx.onInterrupt(undefined);
    if (ctx.out.machine) {
      ctx.out.json({ ...planJson(result.plan), applied: result.outcomes ?? [] });
      return;
    }
    if (result.outcomes === undefined) printPlan(ctx, result.plan, false);
    else ctx.out.success(`Applied: ${summary(result.plan)}.`);
  },
});

/** Shows the plan and asks; deletes need "delete N" typed. Nothing to send to the service: no question. */
async function confirmPlan(ctx: Context, plan: Plan, yes: boolean): Promise<boolean> {
  if (!hasChanges(plan)) return true;
  if (!ctx.out.machine) printPlan(ctx, plan, false);
  const deletes = plan.counts.delete;
  if (deletes === 0 || yes) {
    await ctx.confirm(`Apply these changes to ${plan.service}?`, yes, 'nothing was changed');
    return true;
  }
  await ctx.confirm(`Apply these changes to ${plan.service}, deleting ${deletes} agent${deletes === 1 ? '' : 's'}?`, false, 'nothing was changed');
  const { askLine } = await import('../../cli/prompt.js');
  const expected = `delete ${deletes}`;
  const answer = await askLine(ctx.io, `Type "${expected}" to delete ${deletes === 1 ? 'it' : 'them'}: `);
  if (answer.kind === 'line' && answer.text.trim() === expected) return true;
  ctx.io.stderr.write('Cancelled: nothing was changed.\n');
  throw new ExitError(answer.kind === 'interrupt' ? ExitCode.interrupted : ExitCode.usage);
}

function done(ctx: Context, action: PlanAction, id: string | undefined): void {
  if (ctx.out.machine || (action.action === 'unchanged' && action.via === 'lock')) return;
  const how = action.via === 'adopt' ? ', adopted by name' : action.via === 'recover' ? ', found by name after a stopped run' : '';
  ctx.out.info(`${DONE[action.action]} ${action.file} ${JSON.stringify(action.name)}${id ? ` (${id}${how})` : ''}`);
}

function summary(plan: Plan): string {
  const { create, update, delete: remove } = plan.counts;
  return `${create} created, ${update} updated, ${remove} deleted`;
}

