import type { ChalkInstance } from 'chalk';
import type { Task } from '../api/schemas/task.js';
import { colorStatus } from './color.js';
import type { DetailRow } from './output.js';
import type { Column } from './table.js';

export function taskColumns(chalk: ChalkInstance): Column<Task>[] {
  return [
    { key: 'id' },
    { key: 'status', paint: (text) => colorStatus(chalk, text) },
    // The prompt is how a person recognises a task: a narrow terminal leaves these out before it.
    { key: 'created_at', header: 'created', optional: true },
    { key: 'credits_cost', header: 'credits', optional: true },
    { key: 'prompt', value: (task) => promptText(task.prompt) },
  ];
}

export function taskDetail(task: Task, chalk: ChalkInstance): DetailRow[] {
  const rows: DetailRow[] = [
    { label: 'id', value: task.id },
    { label: 'status', value: task.status, paint: (text) => colorStatus(chalk, text) },
    { label: 'agent_id', value: task.agent_id },
    { label: 'prompt', value: promptText(task.prompt) },
    { label: 'created_at', value: task.created_at },
    { label: 'updated_at', value: task.updated_at },
    { label: 'credits_cost', value: task.credits_cost },
    { label: 'error_message', value: task.error_message },
    { label: 'webhook', value: task.webhook },
  ];
  if (task.webhook_last_called_at) {
    rows.push(
      { label: 'webhook_last_called_at', value: task.webhook_last_called_at },
      { label: 'webhook_last_status_code', value: task.webhook_last_status_code },
      { label: 'webhook_last_error', value: task.webhook_last_error },
    );
  }
  if (task.wait_error) rows.push({ label: 'wait_error', value: task.wait_error });
  return rows.filter((row) => row.label === 'id' || row.label === 'status' || (row.value !== undefined && row.value !== null));
}

function promptText(prompt: unknown): string {
  return typeof prompt === 'string' ? prompt : prompt == null ? '' : JSON.stringify(prompt);
}
