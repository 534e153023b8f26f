// Where `persistent chat` reads the conversation from: on the web the service's MCP endpoint (its
// timeline for the start, then its event wait over durable cursors: src/core/conversation.ts); on
// email the REST timeline, polled (timeline-follow.ts).
import type { ApiClient } from '../../api/client.js';
import { persistentAgents } from '../../api/persistent-agents.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import type { Context } from '../../cli/context.js';
import { followAgentEvents, timelineNow } from '../../core/conversation.js';
import { checkWebSender } from '../../core/web-message.js';
import { InputError, UsageError } from '../../errors.js';
import { explainNoServiceMcp } from './paused.js';
import { followTimeline } from './timeline-follow.js';

export interface ChatHooks {
  onEvents(events: TimelineEvent[]): void;
  done(): boolean;
  stop: AbortSignal;
}

export interface Conversation {
  /** The newest events when the chat starts (shown at a terminal). */
  events: TimelineEvent[];
  /** Every event after the start, once each, until `done()` or `stop`. */
  follow(hooks: ChatHooks): Promise<void>;
}

export async function openConversation(ctx: Context, client: ApiClient, agentId: string, channel: 'web' | 'email', sender: string | undefined, limit: number): Promise<Conversation> {
  if (channel === 'email') {
    const start = await persistentAgents.timeline(client, agentId, { limit });
    return { events: start.events, follow: (hooks) => followTimeline(ctx, client, agentId, start.newest_cursor, hooks) };
  }
  if (sender !== undefined) {
    await checkWebSender(client, agentId, sender).catch((error: unknown) => {
      throw error instanceof InputError ? new UsageError(`--sender ${error.problem}`) : error;
    });
  }
  const start = await timelineNow(client, agentId, limit).catch((error: unknown) => {
    throw explainNoServiceMcp(error, agentId, `agentctl persistent chat ${agentId} --channel email --sender you@example.com`);
  });
  return {
    events: start.events as TimelineEvent[],
    follow: (hooks) =>
      followAgentEvents(client, agentId, start.cursor, {
        onEvents: (events) => hooks.onEvents(events as TimelineEvent[]),
        done: hooks.done,
        onTrouble: (error) => ctx.out.warn(`${error.message}; trying again`),
        signal: AbortSignal.any([ctx.signal, hooks.stop]),
        sleep: (ms, signal) => ctx.clock.sleep(ms, signal),
      }),
  };
}
