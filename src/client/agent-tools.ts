// client.persistent's calls through the service's MCP endpoint: the core's checks and operations,
// their InputError fields renamed to the library's option names (messages_per_window ->
// messagesPerWindow), the service's answers handed over as they came.
import { agentTools } from '../api/agent-tools.js';
import { linkArguments, listLinksArguments, unlinkArguments } from '../core/agent-links.js';
import { checkFileSize, readAgentFile, uploadAgentFile } from '../core/agent-files.js';
import { traceArguments } from '../core/agent-trace.js';
import { InputError } from '../errors.js';
import type { ClientCore } from './core.js';
import { uuid } from './input.js';
import type { AgentToolsApi, UploadFileInput } from './surface-tools.js';

const OPTION_NAMES: Record<string, string> = { agent_id: 'id', peer_agent_id: 'peerId', peer_link_id: 'linkId', eval_run_id: 'evalRunId', mime_type: 'mimeType' };
const optionName = (field: string) => OPTION_NAMES[field] ?? field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The core's check, its field named as the library's caller spells it. */
function named<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof InputError && optionName(error.field) !== error.field) throw new InputError(optionName(error.field), error.problem);
    throw error;
  }
}

function bytesOf(input: UploadFileInput): Uint8Array {
  if (typeof input !== 'object' || input === null) throw new InputError('input', 'must be an object like { path, content }');
  if (typeof input.content === 'string') return Buffer.from(input.content, 'utf8');
  if (input.content instanceof Uint8Array) return input.content;
  throw new InputError('content', 'must be a Uint8Array or a string');
}

export function agentToolsApi(core: ClientCore): AgentToolsApi {
  const { api, call } = core;
  return {
    links: (id, options = {}) => call(() => agentTools.links(api, named(() => listLinksArguments(id)), options)),
    link: (id, peerId, options = {}) =>
      call(() => agentTools.link(api, named(() => linkArguments(String(id), String(peerId), { messages_per_window: options.messagesPerWindow, window_hours: options.windowHours })), { signal: options.signal })),
    unlink: (target, options = {}) =>
      call(() => {
        const ref = 'linkId' in target ? { peer_link_id: target.linkId } : { agent_id: target.id, peer_agent_id: target.peerId };
        return agentTools.unlink(api, named(() => unlinkArguments(ref)), options);
      }),
    files: (id, options = {}) => call(() => agentTools.files(api, uuid('id', id), options)),
    uploadFile: (id, input, options = {}) =>
      call(() => {
        const bytes = bytesOf(input);
        checkFileSize(bytes.byteLength, 'content');
        return named(() => uploadAgentFile(api, uuid('id', id), bytes, { path: input.path, mime_type: input.mimeType, overwrite: input.overwrite }, options));
      }),
    readFile: (id, file, options = {}) => call(() => named(() => readAgentFile(api, uuid('id', id), String(file), options))),
    configOptions: (id, options = {}) => call(() => agentTools.configOptions(api, id === undefined ? {} : { agent_id: uuid('id', id) }, options)),
    trace: (id, options = {}) =>
      call(() => {
        const { signal, recentMinutes, evalRunId, ...rest } = options;
        return agentTools.trace(api, named(() => traceArguments(uuid('id', id), { ...rest, recent_minutes: recentMinutes, eval_run_id: evalRunId })), { signal });
      }),
  };
}
