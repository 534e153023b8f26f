// What a model reads rather than calls: the schedule grammar, the exit codes' meanings, and a task's
// result by URI.
import { McpError, ErrorCode, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../api/client.js';
import { tasks } from '../api/tasks.js';
import { isUuid } from '../contract/validate.js';
import { EXIT_CODE_MEANINGS } from '../errors.js';
import { command as schedulePreview } from '../commands/schedule-preview/preview.js';

const GRAMMAR_URI = 'agentctl://schedule/grammar';
const EXIT_CODES_URI = 'agentctl://exit-codes';
const RESULT = /^agentctl:\/\/tasks\/([^/]+)\/result$/;

export const RESOURCES: Resource[] = [
  {
    uri: GRAMMAR_URI,
    name: 'schedule-grammar',
    title: 'Schedule grammar',
    description: "The schedule expressions a persistent agent accepts (what persistent_create/update and schedule_preview check).",
    mimeType: 'text/plain',
  },
  {
    uri: EXIT_CODES_URI,
    name: 'exit-codes',
    title: 'Error kinds and exit codes',
    description: "What each error kind of a tool error means (the same as agentctl's exit codes).",
    mimeType: 'application/json',
  },
];

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'agentctl://tasks/{id}/result',
    name: 'task-result',
    title: "A task's result",
    description: "A task's result as the service returns it (status, result or error_message); the same as the tasks_result tool.",
    mimeType: 'application/json',
  },
];

export async function readResource(uri: string, client: () => Promise<ApiClient>, signal: AbortSignal): Promise<ReadResourceResult> {
  if (uri === GRAMMAR_URI) return text(uri, 'text/plain', schedulePreview.notes ?? '');
  if (uri === EXIT_CODES_URI) {
    const codes = Object.entries(EXIT_CODE_MEANINGS).map(([code, { name, meaning }]) => ({ exit_code: Number(code), name, meaning }));
    return text(uri, 'application/json', JSON.stringify(codes, null, 2));
  }
  const id = RESULT.exec(uri)?.[1];
  if (id !== undefined) {
    if (!isUuid(id)) throw new McpError(ErrorCode.InvalidParams, `task id "${id}" is not a UUID`);
    const result = await tasks.result(await client(), {}, id.toLowerCase(), { signal });
    return text(uri, 'application/json', JSON.stringify(result));
  }
  throw new McpError(-32002, `no resource ${uri}`, { uri });
}

function text(uri: string, mimeType: string, body: string): ReadResourceResult {
  return { contents: [{ uri, mimeType, text: body }] };
}
