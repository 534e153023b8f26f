// persistent_wait_reply: waits for an agent's messages (its reply) through the service's
// own event wait over durable cursors (src/core/conversation.ts): after persistent_message, wait
// after its cursor; after a wait, go on from the answer's cursor. Each event comes once.
import * as z from 'zod';
import { waitForAgentEvent } from '../../core/conversation.js';
import { describeEvent } from '../../core/timeline-format.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { defineTool, uuid } from '../tool.js';

const WaitEventSchema = z.looseObject({
  matched: z.boolean(),
  events: z.array(z.unknown()),
  cursor: z.string().nullable(),
});

export const persistentWaitReply = defineTool({
  name: 'persistent_wait_reply',
  title: "Wait for an agent's reply",
  description: ({ maxWaitSeconds, names }) =>
    `Wait for the agent's messages after after_cursor (the cursor${names.say` ${'persistent_message'}`} answered, then each answer's). ` +
    `At most ${maxWaitSeconds} s; matched false: call again.`,
  kind: 'read',
  toolset: 'persistent',
  output: WaitEventSchema,
  findWith: 'persistent_list',
  input: z.strictObject({
    id: uuid('the persistent agent'),
    after_cursor: z.string().min(1).optional(),
    timeout_seconds: z.number().int().min(0).optional(),
  }),
  async run({ id, after_cursor, timeout_seconds }, call) {
    const timeoutMs = Math.min(timeout_seconds ?? call.waitSeconds, call.maxWaitSeconds) * 1000;
    const outcome = await waitForAgentEvent(await call.client(), id, { afterCursor: after_cursor, types: ['message'], from: 'agent', timeoutMs, clock: call.clock }, { signal: call.signal });
    const quoted = outcome.events.map((event) => `${typeof event.timestamp === 'string' ? event.timestamp : ''}  ${event.kind}  ${describeEvent(event as TimelineEvent, 200)}`);
    const summary = outcome.matched ? `${outcome.events.length} matching event${outcome.events.length === 1 ? '' : 's'}; go on from the answer's cursor.` : "Nothing matched yet; call again with the answer's cursor.";
    return { data: { ...outcome }, summary, quoted };
  },
});
