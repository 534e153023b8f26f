// `agentctl plan`: what apply would change on the service, per agent and per field. Read-only.
import { hasChanges, planFolder } from '../../agents-as-code/index.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { ExitCode } from '../../errors.js';
import { DIR_OPTION, PRUNE_OPTIONS, planJson, printPlan } from './show.js';

export const command = defineCommand({
  name: 'plan',
  summary: 'show what apply would change: the agent files in --dir compared with the service',
  options: [DIR_OPTION, { flags: '--check', description: 'for CI: print only the differences; exit 11 when there are any' }, ...PRUNE_OPTIONS],
  notes: `Reads every .md file of the folder (one agent each: YAML front matter, then the charter) and
the folder's agentctl.lock.json (which agent each file is on this service), lists the service's agents
and compares, field by field; sends nothing but GETs and writes nothing. A field left out of a file
is not compared. Exits 0 when the service matches the files, 11 when apply has changes to make (a
new file, an edited one, or an agent changed by hand), so a CI job fails on drift:
\`agentctl plan --check\`. See docs/agents-as-code.md.`,
  exitCodes: { ...SERVICE_EXITS, 0: 'the service matches the files: nothing to do', 11: 'apply has changes to make (the plan shows them)' },
  examples: [
    'agentctl plan --dir agents                # exit 11 when apply has changes to make',
    'agentctl plan --dir agents --check        # in CI: only the differences; exit 11 on drift',
    "agentctl plan --dir agents --json | jq .counts   # exit 11 when there are changes",
  ],
  parse: (input) => ({
    dir: input.string('dir') ?? 'agents',
    check: input.flag('check'),
    prune: { created: input.flag('prune'), names: input.list('pruneAgent') },
  }),
  async run({ dir, check, prune }, ctx) {
    const plan = await planFolder(await ctx.client(), { dir, prune, signal: ctx.signal });
    if (ctx.out.machine) ctx.out.json(planJson(plan));
    else printPlan(ctx, plan, check);
    return hasChanges(plan) ? ExitCode.changesPending : ExitCode.ok;
  },
});
