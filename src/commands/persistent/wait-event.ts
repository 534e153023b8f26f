// `persistent wait-event ID`: waits for an event on the agent's timeline (its reply, a step) through
// the service's own event wait, gobii_wait_for_agent_event, over durable cursors
// (src/core/conversation.ts). The cursor it ends on is where the next wait goes on from, so a script
// that always passes it back with --after neither misses an event nor sees one twice.
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { WAIT_ACTOR_TYPES, WAIT_EVENT_TYPES } from '../../api/service-mcp.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { checkUuid, parseSecondsFlag } from '../../contract/validate.js';
import { waitForAgentEvent, type EventFilter } from '../../core/conversation.js';
import { ExitCode, ExitError, UsageError } from '../../errors.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { explainNoServiceMcp } from './paused.js';
import { printEvents } from './timeline.js';

/** A timeline cursor as the service makes and checks them (remote_mcp._validate_timeline_cursor: value:kind:identifier). */
const CURSOR = /^\d+:(message|step|thinking|kanban|plan):[A-Za-z0-9_-]{1,100}$/;

export const command = defineCommand({
  name: 'wait-event',
  summary: "wait for an event on an agent's timeline (its reply): the service's event wait, over durable cursors",
  args: [AGENT_ID_ARG],
  options: [
    { flags: '--type <kind>', description: 'only events of this kind', choices: WAIT_EVENT_TYPES },
    { flags: '--from <actor>', description: 'only events from: agent (its messages), human_user, external (MCP and other senders), system (steps, thinking, plans)', choices: WAIT_ACTOR_TYPES },
    { flags: '--channel <channel>', description: "only messages on this channel (web, email, sms, mcp, ...)" },
    { flags: '--after <cursor>', description: 'only events after this timeline cursor (the `cursor` of `persistent message --json`, or of an earlier wait); default: after the newest event now' },
  ],
  notes:
    "Asks the service's MCP endpoint (POST /api/v1/mcp/, gobii_wait_for_agent_event; gobii-platform 2.20.0 or\n" +
    'later), one bounded wait of at most 30 s after another until --timeout (default 30 s). Prints the matching events (--json:\n' +
    '{ matched, events, cursor }) and, for people, the command that waits for the next one. Exit 0 when an event\n' +
    'matched, 7 when none did within --timeout (the cursor to go on from is still printed).',
  exitCodes: { ...SERVICE_EXITS, 0: 'an event matched', 7: 'no event matched within --timeout' },
  examples: [
    `agentctl persistent wait-event ${ID} --type message --from agent --timeout 120`,
    `agentctl persistent wait-event ${ID} --type message --from agent --after "$(agentctl persistent message ${ID} 'Any news?' --channel web --jq .cursor)"`,
  ],
  parse(input) {
    const after = input.string('after');
    if (after !== undefined && !CURSOR.test(after)) throw new UsageError(`--after must be a timeline cursor like 1733097600000000:message:<id>, got "${after}"`);
    const channel = input.string('channel');
    if (channel !== undefined && channel.trim() === '') throw new UsageError('--channel must not be empty');
    return {
      agentId: checkUuid(input.arg(0) ?? '', 'agent id'),
      filter: { types: input.string('type') ? [input.string('type')] : undefined, from: input.string('from'), channel } as EventFilter,
      after,
      // The global --timeout is, for a wait, how long to wait (as for `tasks wait`); 30 s without.
      timeoutMs: parseSecondsFlag(input.globals.timeout ?? '30', '--timeout', 0) * 1000,
    };
  },
  async run({ agentId, filter, after, timeoutMs }, ctx) {
    ctx.ownsTimeoutFlag = true; // each request's own limit is the client's usual one
    const client = await ctx.client();
    const outcome = await waitForAgentEvent(client, agentId, { ...filter, afterCursor: after, timeoutMs, clock: ctx.clock }, { signal: ctx.signal }).catch((error: unknown) => {
      throw explainNoServiceMcp(error, agentId, `agentctl persistent timeline ${agentId} --follow`);
    });
    // The cursor is the service's text: offered to type back only when it is a cursor's shape.
    const cursor = outcome.cursor !== null && CURSOR.test(outcome.cursor) ? outcome.cursor : null;
    const next = cursor === null ? `agentctl persistent wait-event ${agentId}` : `agentctl persistent wait-event ${agentId} --after ${cursor}`;
    if (ctx.out.machine) ctx.out.json({ matched: outcome.matched, events: outcome.events, cursor });
    else printEvents(ctx, outcome.events as TimelineEvent[]);
    if (!outcome.matched) {
      const sentence = `No matching event on agent ${agentId}'s timeline within ${timeoutMs / 1000}s (--timeout)`;
      if (ctx.out.machine) throw new ExitError(ExitCode.waitTimedOut, sentence.charAt(0).toLowerCase() + sentence.slice(1), `wait again with: ${next}`);
      ctx.out.error(`${sentence}. Wait again with:\n  ${next}`);
      throw new ExitError(ExitCode.waitTimedOut);
    }
    if (!ctx.out.machine) ctx.out.info(`The next event: ${next}`);
    return ExitCode.ok;
  },
});
