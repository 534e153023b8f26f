import { persistentAgents } from '../../api/persistent-agents.js';
import { checkUuid } from '../../contract/validate.js';
import type { CommandRun } from '../../cli/lazy.js';
import { colorStatus } from '../../output/color.js';
import { plainCell } from '../../output/format.js';
import type { Column } from '../../output/table.js';

type WebTask = Record<string, unknown>;

export const run: CommandRun = async (ctx, [id]) => {
  const agentId = checkUuid(String(id), 'agent id');
  const status = await persistentAgents.processingStatus(await ctx.client(), agentId);
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
};
