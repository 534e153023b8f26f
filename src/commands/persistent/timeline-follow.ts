// Following an agent's timeline like `tail -f` (`timeline --follow`, and `chat`): ask for events
// newer than the newest cursor seen, print them, and poll again soon while the agent is working
// (processing_active) or events keep coming, backing off to a slow poll while it is idle.
import type { ApiClient } from '../../api/client.js';
import { persistentAgents } from '../../api/persistent-agents.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { isTransientError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';

export const FAST_POLL_MS = 500;
export const SLOW_POLL_MS = 10_000;

export interface FollowHooks {
  onEvents(events: TimelineEvent[]): void;
  onProcessing?(active: boolean): void;
  /** Checked after each poll: true ends the follow. */
  done?(): boolean;
  /** Aborted to end the follow now, without waiting out its pause (a chat whose send failed). */
  stop?: AbortSignal;
}

/** The delay after a poll: fast while there is news or work, growing by half while idle. */
export function nextDelay(previous: number, news: boolean, active: boolean): number {
  if (news || active) return FAST_POLL_MS;
  return Math.min(SLOW_POLL_MS, Math.round(previous * 1.5));
}

/** Polls for new events after `cursor` (the newest of `shown`, the events already printed) until Ctrl-C or `hooks.done()`. */
export async function followTimeline(
  ctx: Context,
  client: ApiClient,
  agentId: string,
  cursor: string | null | undefined,
  hooks: FollowHooks,
  shown: TimelineEvent[] = [],
): Promise<void> {
  let delay = FAST_POLL_MS;
  let active: boolean | undefined;
  let printed = cursorsOf(shown);
  while (!ctx.signal.aborted) {
    let news = false;
    try {
      const [window, status] = await Promise.all([
        cursor
          ? persistentAgents.timeline(client, agentId, { direction: 'newer', cursor, limit: 100 })
          : persistentAgents.timeline(client, agentId, { limit: 100 }),
        persistentAgents.processingStatus(client, agentId),
      ]);
      // A service that hands back events already printed (its cursor did not move) would have them
      // printed again every poll: only events not in the last window printed go out, and a window
      // of nothing new is no news (no fast polling on its `has_more_newer`).
      const fresh = window.events.filter((event) => !event.cursor || !printed.has(event.cursor));
      if (fresh.length > 0) {
        news = true;
        cursor = window.newest_cursor ?? cursor;
        printed = cursorsOf(fresh);
        hooks.onEvents(fresh);
      }
      if (status.processing_active !== active) {
        active = status.processing_active;
        hooks.onProcessing?.(active);
      }
      if (window.has_more_newer && fresh.length > 0) news = true;
    } catch (error) {
      if (ctx.signal.aborted) return;
      if (!isTransientError(error)) throw error;
      ctx.out.warn(`${(error as Error).message}; trying again`);
    }
    if (hooks.done?.()) return;
    delay = nextDelay(delay, news, Boolean(active));
    try {
      await ctx.clock.sleep(delay, hooks.stop ? AbortSignal.any([ctx.signal, hooks.stop]) : ctx.signal);
    } catch {
      return;
    }
  }
}

function cursorsOf(events: TimelineEvent[]): Set<string> {
  return new Set(events.flatMap((event) => (event.cursor ? [event.cursor] : [])));
}
