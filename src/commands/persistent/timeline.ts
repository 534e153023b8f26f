import { PartialListError } from '../../api/pagination.js';
import { persistentAgents, timelineWindowsBackwards, type TimelineQuery } from '../../api/persistent-agents.js';
import { PAGE_LIMITS } from '../../contract/limits.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { checkUuid, parseIntegerFlag } from '../../contract/validate.js';
import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { shorten } from '../../output/format.js';
import { sanitizeLine } from '../../output/sanitize.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { TIMELINE_DIRECTIONS } from '../../contract/enums.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { timelineLine, timelinePlainLine } from '../../core/timeline-format.js';
import { followTimeline } from './timeline-follow.js';

interface TimelineOptions {
  query: TimelineQuery;
  all: boolean;
  follow: boolean;
}

const options = [
  { flags: '--direction <direction>', description: 'which window: the newest (initial), or older/newer than --cursor', choices: TIMELINE_DIRECTIONS },
  { flags: '--cursor <cursor>', description: 'cursor from a previous answer (oldest_cursor / newest_cursor)' },
  { flags: '--limit <n>', description: 'events per request, 1..100 (service default 40)' },
  { flags: '--all', description: 'page back to the very first event (100 a window unless --limit)' },
  { flags: '-f, --follow', description: 'like tail -f: the newest events, then new ones as they come, until Ctrl-C' },
];

export function parseTimelineOptions(input: ParseInput): TimelineOptions {
  const query: TimelineQuery = {};
  const [direction, cursor, limit] = [input.string('direction'), input.string('cursor'), input.string('limit')];
  if (direction !== undefined) query.direction = direction;
  if (cursor !== undefined) query.cursor = cursor;
  if (limit !== undefined) query.limit = parseIntegerFlag(limit, '--limit', 1, 100);
  const all = input.flag('all');
  const follow = input.flag('follow');
  if (follow && (all || query.direction === 'older')) throw new UsageError('--follow prints the newest events and then new ones; drop --all / --direction older');
  if (query.direction && query.direction !== 'initial' && !query.cursor) {
    throw new UsageError(`--direction ${query.direction} needs --cursor`, 'take oldest_cursor or newest_cursor from `timeline ID --json`');
  }
  if (all && query.direction === 'newer') throw new UsageError('--all pages back through older events; it cannot be combined with --direction newer');
  return { query, all, follow };
}

export const command = defineCommand({
  name: 'timeline',
  summary: "the agent's activity log, oldest first: messages, thinking, plans and tool steps",
  args: [AGENT_ID_ARG],
  options,
  notes:
    "--json prints the service's answer (events with their cursors); with --all, one array of every event.\n" +
    '--jsonl prints one event per line. Events are always printed oldest first, so --all reads every\n' +
    'window before printing (one agent\'s history, not a stream), at most 1,000 windows; a service whose\n' +
    'windows never end is stopped, with what was read printed and exit 1 (see docs/limits.md).\n' +
    '--follow prints the newest events, then each new one as it arrives (polling every 0.5 s while the\n' +
    'agent works or events come, backing off to 10 s while it is idle), and says on stderr when the agent\n' +
    'starts and stops working (processing_active). Ctrl-C ends it with exit 0. With --jsonl, one event a line.',
  exitCodes: { ...SERVICE_EXITS, 0: 'success (--follow: also when Ctrl-C ends it)', 1: 'the service answered with an error, or a window that never ends was stopped (docs/limits.md)' },
  examples: [
    `agentctl persistent timeline ${ID}`,
    `agentctl persistent timeline ${ID} --follow`,
    `agentctl persistent timeline ${ID} --follow --jsonl | jq -r 'select(.kind == "message") | .message.body'`,
    `agentctl persistent timeline ${ID} --all --jsonl | jq -r 'select(.kind == "message") | .timestamp'`,
    `agentctl persistent timeline ${ID} --direction older --cursor "$(agentctl persistent timeline ${ID} --json | jq -r .oldest_cursor)"`,
  ],
  parse: (input) => ({ agentId: checkUuid(input.arg(0) ?? '', 'agent id'), ...parseTimelineOptions(input) }),
  run,
});

async function run({ agentId, query, all, follow }: TimelineOptions & { agentId: string }, ctx: Context): Promise<number | void> {
  const client = await ctx.client();
  if (follow) return followCommand(ctx, client, agentId, query);

  if (!all) {
    const window = await persistentAgents.timeline(client, agentId, query);
    if (ctx.out.settings.format === 'json') return ctx.out.json(window);
    printEvents(ctx, window.events);
    if (window.has_more_older && window.oldest_cursor && ctx.out.settings.format === 'table') {
      ctx.out.info(ctx.out.chalk.dim(`Older events: --direction older --cursor ${window.oldest_cursor}, or --all.`));
    }
    return;
  }

  // Windows arrive newest first; the log reads oldest first, so collect, then print in order (the
  // walk's window cap bounds what is held). A walk that stops part-way prints what it read, then says so.
  const windows: TimelineEvent[][] = [];
  let read = 0;
  let stopped: PartialListError | undefined;
  try {
    for await (const events of timelineWindowsBackwards(client, agentId, { ...query, limit: query.limit ?? PAGE_LIMITS.timeline.max })) {
      windows.push(events);
      read += events.length;
    }
  } catch (error) {
    if (windows.length === 0 || ctx.signal.aborted) throw error;
    stopped = new PartialListError(error as Error, read, undefined, undefined, false, 'paging back through older windows');
  }
  const events = windows.reverse().flat();
  if (ctx.out.settings.format === 'json') ctx.out.json(events);
  else {
    printEvents(ctx, events);
    ctx.out.tableNote(`${events.length} event${events.length === 1 ? '' : 's'}`);
  }
  if (stopped) throw stopped;
}

/** `--follow`: the newest window, then new events until Ctrl-C (exit 0). */
async function followCommand(ctx: Context, client: ApiClient, agentId: string, query: TimelineQuery): Promise<number> {
  ctx.handlesInterrupt = true;
  const first = await persistentAgents.timeline(client, agentId, query);
  printEvents(ctx, first.events, true);
  await followTimeline(ctx, client, agentId, first.newest_cursor, {
    onEvents: (events) => printEvents(ctx, events, true),
    onProcessing: (active) => ctx.out.info(ctx.out.chalk.dim(active ? '… the agent is working' : '· the agent is idle')),
  }, first.events);
  return 0;
}

export function printEvents(ctx: Context, events: TimelineEvent[], streaming = false): void {
  const format = ctx.out.settings.format;
  if (format === 'jsonl' || (streaming && format === 'json')) return events.forEach((event) => ctx.out.jsonLine(event));
  if (format === 'plain') return events.forEach((event) => ctx.out.line(timelinePlainLine(event)));
  if (events.length === 0) return streaming ? undefined : ctx.out.info('No events.');
  const width = ctx.out.settings.width;
  // The line is cut as a whole, so the time-and-kind prefix counts; control characters are escaped
  // first, so the escaped form is what is measured.
  for (const event of events) ctx.out.line(shorten(sanitizeLine(timelineLine(event, width)), width));
}
