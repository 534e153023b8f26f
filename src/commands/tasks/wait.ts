import { DEFAULT_MAX_OUTAGE_MS } from '../../api/wait.js';
import { defineCommand } from '../../cli/define.js';
import { WAIT_EXITS } from '../../cli/exit-codes.js';
import { checkUuid } from '../../contract/validate.js';
import { AGENT_OPTION, ID, WAIT_LIMITS_HELP, parseScope, parseWaitLimits } from './options.js';
import { startWait, waitAndReport } from './outcome.js';

const WAIT_MANY_HELP = `
Several ids: one poller waits for all of them (or, with --any, for the first to end) and prints one
JSON line per task as it ends, {"id", "status", "result", "error"}, with a summary on stderr; the
exit code is the worst outcome's (with --any, the first task's).`;

export const command = defineCommand({
  name: 'wait',
  summary: 'wait until a task ends, print its result; exit 0 completed, 5 failed, 6 cancelled, 7 timed out',
  args: [{ name: '<ids...>', description: 'task id (UUID); several ids wait together' }],
  options: [
    { flags: '--interval <sec>', description: 'longest time between polls, seconds', default: '2' },
    { flags: '--max-outage <sec>', description: `give up when the service is unreachable this long (default ${DEFAULT_MAX_OUTAGE_MS / 1000})` },
    { flags: '--any', description: 'with several ids: stop at the first task that ends, with its exit code' },
    AGENT_OPTION,
  ],
  notes: `${WAIT_LIMITS_HELP}\nBy default it waits until the task ends.\n${WAIT_MANY_HELP}`,
  exitCodes: {
    ...WAIT_EXITS,
    0: 'every task completed (with --any: the first to end did)',
    4: 'an unknown task id',
    5: 'a task ended failed (several ids: the worst outcome decides; with --any, the first to end)',
    6: 'a task ended cancelled',
    7: '--timeout ran out first: the remaining ids are printed in the command that resumes the wait',
    130: 'interrupted (Ctrl-C): the command that resumes the wait is printed',
  },
  examples: [
    `agentctl tasks wait ${ID} --timeout 600`,
    `agentctl tasks wait ${ID} --max-outage 60 --json | jq .result`,
    'agentctl tasks wait $(agentctl tasks list --status in_progress --jsonl | jq -r .id) | jq -r \'[.id, .status] | @tsv\'',
    `agentctl tasks wait ${ID} 9b2e4c1d-7a3f-4e5b-8c6d-0f1e2d3c4b5a --any`,
  ],
  parse(input) {
    const scope = parseScope(input);
    const [first, ...more] = input.args(0);
    const id = checkUuid(first ?? '', 'task id');
    const ids = [...new Set([id, ...more.map((other) => checkUuid(other, 'task id'))])];
    return { scope, id, ids, many: more.length > 0, any: input.flag('any'), limits: parseWaitLimits(input) };
  },
  async run({ scope, id, ids, many, any, limits }, ctx) {
    // Started before the client is made: its requests then keep their usual limit, --timeout being the wait's.
    const started = startWait(ctx, limits);
    if (many || any) return (await import('./wait-many.js')).waitMany(ctx, { scope, ids, any, limits: started });
    await waitAndReport(ctx, await ctx.client(), scope, id, started);
  },
});
