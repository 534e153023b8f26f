import { persistentAgents } from '../../api/persistent-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { ProcessingStatus } from '../../api/schemas/persistent-agent.js';
import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { WATCH_OPTION, parseWatch, watch } from '../common/watch.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { colorStatus } from '../../output/color.js';
import { plainCell } from '../../output/format.js';
import type { Column } from '../../output/table.js';

type WebTask = Record<string, unknown>;

export const command = defineCommand({
  name: 'status',
  summary: 'is the agent working now: its running web tasks and its next scheduled run',
  args: [AGENT_ID_ARG],
  options: [WATCH_OPTION],
  exitCodes: { ...SERVICE_EXITS, 0: 'success (--watch: also when Ctrl-C ends it)', 4: 'no such agent' },
  examples: [
    `agentctl persistent status ${ID}`,
    `agentctl persistent status ${ID} --json | jq .processing_active`,
    `agentctl persistent status ${ID} --watch 5`,
  ],
  parse: (input) => ({ agentId: checkUuid(input.arg(0) ?? '', 'agent id'), watchMs: parseWatch(input.value('watch')) }),
  async run({ agentId, watchMs }, ctx) {
    const client = await ctx.client();
    const fetch = () => persistentAgents.processingStatus(client, agentId);
    if (watchMs !== undefined) return watch(ctx, watchMs, fetch, (status) => showStatus(ctx, status));
    showStatus(ctx, await fetch());
  },
});

function showStatus(ctx: Context, status: ProcessingStatus): void {
  if (ctx.out.machine) return ctx.out.json(status);

  const snapshot = status.processing_snapshot ?? {};
  const webTasks = (snapshot.webTasks ?? []) as WebTask[];
  const next = snapshot.nextScheduledAt ?? null;
  const { chalk } = ctx.out;
  ctx.out.record(status, [
    { label: 'processing', value: status.processing_active ? 'yes' : 'no', paint: (text) => (status.processing_active ? chalk.green(text) : text) },
    { label: 'web_tasks', value: webTasks.length },
    { label: 'next_scheduled_at', value: next ?? 'none' },
  ]);
  if (webTasks.length === 0) return;
  const columns: Column<WebTask>[] = [
    { key: 'id' },
    { key: 'status', paint: (text) => colorStatus(chalk, text) },
    { key: 'elapsed', value: (task) => (typeof task.elapsedSeconds === 'number' ? `${Math.round(task.elapsedSeconds)}s` : '') },
    { key: 'startedAt', header: 'started' },
    { key: 'prompt', value: (task) => task.promptPreview ?? task.prompt },
  ];
  if (ctx.out.settings.format === 'plain') {
    // Piped, every line starts with its label, so `awk -F'\t' '$1 == "web_task"'` picks the tasks.
    for (const task of webTasks) ctx.out.line(['web_task', ...columns.map((column) => plainCell(column.value ? column.value(task) : task[column.key]))].join('\t'));
    return;
  }
  ctx.out.line('');
  ctx.out.list(webTasks, columns);
}
