// Agents as code for a model: plan (read-only) and apply (destructive, confirmed) of the one folder
// the server was started with (--agents-dir): the model names no path, so it cannot make a charter
// out of another file of this machine. Off unless --toolsets names `as-code`.
import * as z from 'zod';
import { applyFolder, hasChanges, planFolder, planRecord } from '../../agents-as-code/index.js';
import { systemClock } from '../../contract/clock.js';
import { defineTool } from '../tool.js';

const prune = {
  prune: z.boolean().default(false).describe('also delete the agents apply created whose files are gone'),
  prune_agents: z.array(z.string()).max(100).default([]).describe('also delete these agents (by name) whose files are gone, though apply did not create them'),
};

const change = z.object({ field: z.string(), from: z.unknown().optional(), to: z.unknown() });
const planOutput = z.object({
  service: z.string(),
  changes: z.boolean(),
  counts: z.object({ create: z.number(), update: z.number(), unchanged: z.number(), delete: z.number() }),
  actions: z.array(z.object({ action: z.string(), file: z.string(), name: z.string(), id: z.string().nullable(), changes: z.array(change), charter_diff: z.array(z.string()) }).loose()),
  kept: z.array(z.object({ file: z.string(), name: z.string(), id: z.string(), reason: z.string() })),
});

/** The changed agents, one line each, for the person or model: names are the files' and the service's text (quoted). */
function changedLines(record: ReturnType<typeof planRecord>): string[] {
  return record.actions.filter((action) => action.action !== 'unchanged').map((action) => `${action.action} ${action.file} ${JSON.stringify(action.name)}: ${action.changes.map((c) => c.field).join(', ') || 'every field'}`);
}

const counted = ({ create, update, delete: remove, unchanged }: { create: number; update: number; delete: number; unchanged: number }) =>
  `${create} to create, ${update} to update, ${remove} to delete, ${unchanged} unchanged`;

const asCodePlan = defineTool({
  name: 'as_code_plan',
  title: 'Plan the agent files',
  description: ({ names }) =>
    "Compare the server's folder of agent files (one Markdown file per persistent agent) with the service: what apply would create, update or delete, per field, with the charter as a line diff. " +
    `Changes nothing.${names.say` Apply it with ${'as_code_apply'}.`}`,
  kind: 'read',
  toolset: 'as-code',
  output: planOutput,
  input: z.strictObject(prune),
  async run(args, call) {
    const plan = await planFolder(await call.client(), { dir: call.agentsDir, prune: { created: args.prune, names: args.prune_agents }, signal: call.signal });
    const record = planRecord(plan);
    return { data: { ...record }, summary: `${hasChanges(plan) ? 'Plan' : 'Nothing to do'}: ${counted(plan.counts)}.`, quoted: changedLines(record) };
  },
});

const asCodeApply = defineTool({
  name: 'as_code_apply',
  title: 'Apply the agent files',
  description: ({ names }) =>
    `Make the service match the server's folder of agent files: creates and updates persistent agents, and deletes only with prune. Asks the user to confirm first where the client can.${names.say` See what it would do with ${'as_code_plan'}.`}`,
  kind: 'destructive',
  idempotent: true,
  toolset: 'as-code',
  output: z.object({ ...planOutput.shape, applied: z.array(z.object({ action: z.string(), file: z.string(), name: z.string(), id: z.string().optional() })), declined: z.boolean().optional() }),
  input: z.strictObject(prune),
  async run(args, call) {
    let declined = false;
    const result = await applyFolder(await call.client(), {
      dir: call.agentsDir,
      prune: { created: args.prune, names: args.prune_agents },
      signal: call.signal,
      owner: { process: { pid: 0, isRunning: () => true }, clock: call.clock ?? systemClock, signal: call.signal, say: () => undefined },
      confirm: async (plan) => {
        if (!hasChanges(plan)) return true;
        declined = (await call.confirm(`Apply the agent files to ${plan.service}: ${counted(plan.counts)}?`)) === 'declined';
        return !declined;
      },
    });
    const record = planRecord(result.plan);
    const summary = declined ? 'The user declined: nothing was changed.' : result.outcomes ? `Applied: ${counted(result.plan.counts)}.` : 'Nothing to do.';
    return { data: { ...record, applied: result.outcomes ?? [], ...(declined ? { declined } : {}) }, summary, quoted: changedLines(record) };
  },
});

export const AS_CODE_TOOLS = [asCodePlan, asCodeApply];

