import { createHash } from 'node:crypto';
import { appendMessage, processMessage } from '../persistent-routes.js';
import { inactivePayload, OWNER_USER_ID, webAgentAddress, type PersistentAgentRecord } from '../persistent-state.js';
import { eventBody, type MessageFields, type TimelineEvent } from '../timeline.js';
import { agentAccess } from './access.js';
import { isoformat, optionalBool, requiredString, ToolError, type Args } from './args.js';
import type { McpServices } from './context.js';
import { addResourceUris, decodeInlineAttachments, resolveAttachments, writeAgentFile } from './files.js';
import { timelineTool } from './timeline-tool.js';
import { withResourceLinks, type ToolHandler } from './tool-result.js';
import { waitTool } from './wait.js';

// gobii_send_agent_message (remote_mcp.py _tool_send_agent_message, through message_service.
// inject_internal_web_message): an inbound web message from the key's user, shown on channel "mcp",
// after which the agent owns its web address; the agent then works on it (unless
// trigger_processing is false) and replies as it does to a REST message.

export const MESSAGE_TOOLS: Record<string, ToolHandler> = {
  gobii_send_agent_message: sendMessage,
  gobii_get_agent_timeline: timelineTool,
  gobii_wait_for_agent_event: waitTool,
};

const SOURCE = { kind: 'mcp', label: 'Gobii MCP' } as const;

function sendMessage(services: McpServices, args: Args, url: URL) {
  const { state, lifecycle } = services;
  const agent = agentAccess(state, args.agent_id, args);
  if (!agent.is_active) {
    const payload = inactivePayload(agent, url.origin);
    throw new ToolError(payload.message, payload);
  }
  const body = requiredString(args, 'body');
  const trigger = optionalBool(args.trigger_processing ?? true, 'trigger_processing');
  const paths = args.attachment_file_paths || [];
  if (!Array.isArray(paths)) throw new ToolError('attachment_file_paths must be an array of filespace paths.');
  // Every inline file is checked before any is written.
  const inline = decodeInlineAttachments(args.attachments);
  const uploaded = inline.map((item) => writeAgentFile(state, agent, item));
  const attachments = resolveAttachments(state, agent, [...paths, ...uploaded.map((item) => item.path)]);
  const message: MessageFields = {
    id: state.newId(),
    isOutbound: false,
    channel: 'web',
    sender: `web://user/${OWNER_USER_ID}/agent/${agent.id}`,
    recipient: webAgentAddress(agent),
    subject: null,
    body,
    source: SOURCE,
    attachments,
  };
  // "Ensure agent owns the target endpoint": from now on the agent has a web address of its own.
  agent.webEndpointOwned = true;
  const event = appendMessage(state, agent, message);
  if (trigger) processMessage(state, lifecycle, agent, message);
  const timelineEvent = eventBody(event, state.clock.now());
  addResourceUris([timelineEvent], agent.id);
  const cursor = timelineEvent.cursor as string;
  const accepted = trigger ? 'queued' : 'stored';
  return withResourceLinks({
    status: accepted,
    accepted_state: accepted,
    message_id: message.id,
    agent_id: agent.id,
    cursor,
    latest_cursor: cursor,
    created_at: isoformat(event.timestamp),
    actor: { type: 'external', source: 'remote_mcp' },
    message: serializeMessage(agent, message, event),
    timeline_event: timelineEvent,
    conversation_id: conversationId(agent),
    attachment_count: attachments.length,
    uploaded_attachments: uploaded,
  });
}

/** remote_mcp.py _serialize_message. */
function serializeMessage(agent: PersistentAgentRecord, message: MessageFields, event: TimelineEvent) {
  return {
    id: message.id,
    owner_agent_id: agent.id,
    conversation_id: conversationId(agent),
    parent_id: null,
    is_outbound: false,
    body: message.body,
    timestamp: isoformat(event.timestamp),
  };
}

/** The agent's web conversation with its owner (one per sender address): a stable id derived from the agent's. */
function conversationId(agent: PersistentAgentRecord): string {
  const hex = createHash('sha256').update(`${agent.id}:web-conversation`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
