import { persistentAgents, timelineWindowsBackwards, type TimelineQuery } from '../../api/persistent-agents.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { checkUuid, parseIntegerFlag } from '../../contract/validate.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../errors.js';
import type { CommandRun } from '../../cli/lazy.js';
import { timelineLine, timelinePlainLine } from './timeline-format.js';

interface TimelineOptions {
  query: TimelineQuery;
  all: boolean;
}

export function parseTimelineOptions(options: Record<string, unknown>): TimelineOptions {
  const query: TimelineQuery = {};
  if (options.direction !== undefined) query.direction = String(options.direction);
  if (options.cursor !== undefined) query.cursor = String(options.cursor);
  if (options.limit !== undefined) query.limit = parseIntegerFlag(String(options.limit), '--limit', 1, 100);
  const all = Boolean(options.all);
  if (query.direction && query.direction !== 'initial' && !query.cursor) {
    throw new UsageError(`--direction ${query.direction} needs --cursor`, 'take oldest_cursor or newest_cursor from `timeline ID --json`');
  }
  if (all && query.direction === 'newer') throw new UsageError('--all pages back through older events; it cannot be combined with --direction newer');
  return { query, all };
}

export const run: CommandRun = async (ctx, [id], options) => {
  const agentId = checkUuid(String(id), 'agent id');
  const { query, all } = parseTimelineOptions(options);
  const client = await ctx.client();

  if (!all) {
    const window = await persistentAgents.timeline(client, agentId, query);
    if (ctx.out.settings.format === 'json') return ctx.out.json(window);
    printEvents(ctx, window.events);
    if (window.has_more_older && window.oldest_cursor && ctx.out.settings.format === 'table') {
      ctx.out.info(ctx.out.chalk.dim(`Older events: --direction older --cursor ${window.oldest_cursor}, or --all.`));
    }
    return;
  }

  // Windows arrive newest first; the log reads oldest first, so collect, then print in order.
  const windows: TimelineEvent[][] = [];
  for await (const window of timelineWindowsBackwards(client, agentId, query)) windows.push(window.events);
  const seen = new Set<string>();
  const events = windows.reverse().flat().filter((event) => {
    if (!event.cursor) return true;
    if (seen.has(event.cursor)) return false;
    seen.add(event.cursor);
    return true;
  });
  if (ctx.out.settings.format === 'json') return ctx.out.json(events);
  printEvents(ctx, events);
  if (ctx.out.settings.format === 'table') ctx.out.info(ctx.out.chalk.dim(`${events.length} event${events.length === 1 ? '' : 's'}`));
};

function printEvents(ctx: Context, events: TimelineEvent[]): void {
  const format = ctx.out.settings.format;
  if (format === 'jsonl') return events.forEach((event) => ctx.out.json(event));
  if (format === 'plain') return events.forEach((event) => ctx.out.line(timelinePlainLine(event)));
  if (events.length === 0) return ctx.out.info('No events.');
  const bodyWidth = Math.max(30, ctx.out.settings.width - 34);
  for (const event of events) ctx.out.line(timelineLine(event, bodyWidth));
}
