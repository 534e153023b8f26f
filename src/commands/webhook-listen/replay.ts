import type { Context } from '../../cli/context.js';
import { defineCommand, type ParseInput } from '../../cli/define.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../../contract/limits.js';
import { checkUuid, parseSecondsFlag } from '../../contract/validate.js';
import { ExitCode, UsageError } from '../../errors.js';
import { colorStatus } from '../../output/color.js';
import { shellWord } from '../../output/shell.js';
import { readEventLog, loggedForwardItem, type LoggedEvent } from '../../webhooks/event-log.js';
import { eventListColumns } from '../../webhooks/format.js';
import { Forwarder } from '../../webhooks/forwarder.js';
import { checkHttpUrl } from './options.js';

/** `--since`: an instant, or a duration before now (resolved when the command runs). */
export type Since = { at: number } | { agoMs: number };

export interface ReplayOptions {
  log: string;
  forwardTo: string[];
  taskId?: string;
  since?: Since;
  /** How long to keep trying to deliver (the global --timeout). */
  timeoutMs: number;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `2026-03-01T09:00:00Z` (ISO 8601) or `90s`, `15m`, `2h`, `7d` ago. */
export function parseSince(text: string): Since {
  const ago = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text.trim());
  if (ago) return { agoMs: Number(ago[1]) * (UNITS[ago[2] as string] as number) };
  const at = /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/.test(text.trim()) ? Date.parse(text.trim()) : NaN;
  if (Number.isNaN(at)) {
    throw new UsageError(`--since "${text}" is neither an ISO 8601 time nor a duration`, 'for example --since 2026-03-01T09:00:00Z, or --since 2h (also s, m, d)');
  }
  return { at };
}

export function parseReplayOptions(input: ParseInput): ReplayOptions {
  const log = input.arg(0) ?? '';
  if (log.trim() === '' || log === '-') throw new UsageError('replay needs the path of a webhook-listen --output log');
  const forwardTo = input.list('forwardTo').map((url) => checkHttpUrl(url, '--forward-to'));
  const task = input.string('task');
  const since = input.string('since');
  const timeout = input.globals.timeout;
  return {
    log,
    forwardTo,
    taskId: task === undefined ? undefined : checkUuid(task, '--task'),
    since: since === undefined ? undefined : parseSince(since),
    timeoutMs: parseSecondsFlag(timeout ?? String(DEFAULT_TIMEOUT_SECONDS), '--timeout', 0.001) * 1000,
  };
}

export const command = defineCommand({
  name: 'replay',
  summary: 'resend (or list) events captured by webhook-listen --output, in order, through the forwarder',
  args: [{ name: '<log>', description: 'a webhook-listen --output file (one {received_at, headers, body} per line)' }],
  options: [
    { flags: '--forward-to <url>', description: 'post the events here (repeatable); without it, print them', repeatable: true },
    { flags: '--task <id>', description: "only this task's events" },
    { flags: '--since <time>', description: 'only events received at or after TIME: ISO 8601, or a duration ago (90s, 15m, 2h, 7d)' },
  ],
  notes:
    'Every line of LOG is checked first; if any is not an event the listener stored, they are listed with\n' +
    'their line numbers and nothing is sent (exit 2). An unfinished last line (a listener writing it)\n' +
    'or a torn one that is not JSON (a crash while it was written) is skipped with a warning.\n' +
    'Without --forward-to the selected events are printed: a table on a terminal, tab-separated when\n' +
    'piped, the stored records with --json (one array) or --jsonl (one per line).\n' +
    'With --forward-to each event is posted as stored (body, content type, user agent), in log order,\n' +
    '8 in flight on one keep-alive connection, retried with backoff while the target fails (5xx, 408,\n' +
    '429, a reset or refused connection, a timeout; Retry-After honoured); a 4xx answer or a lasting\n' +
    'error (unknown host, bad certificate) refuses an event for good (exit 1), as does a 3xx not followed\n' +
    '(a redirect loop, a redirect without Location, a 304): only a 2xx is a delivery.\n' +
    '--timeout SEC (a global option) is how long to keep trying (default 30): exit 8 when events are\n' +
    'still undelivered, with the command that resends the rest. Ctrl-C stops with a summary (exit 130).\n' +
    'Replaying does not move the listener\'s forward cursor (FILE.forwarded).',
  exitCodes: {
    0: 'every event delivered (or listed)',
    1: 'an event refused for good (a 4xx, an unknown host, a redirect not followed)',
    2: 'bad lines in FILE: nothing sent',
    8: '--timeout ran out with events undelivered: the command that resends the rest is printed',
    130: 'interrupted (Ctrl-C), with a summary',
  },
  examples: [
    'agentctl webhook-listen replay events.jsonl                 # list what was captured',
    'agentctl webhook-listen replay events.jsonl --forward-to http://127.0.0.1:3000/hook',
    'agentctl webhook-listen replay events.jsonl --task 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f --jsonl',
    'agentctl webhook-listen replay events.jsonl --since 2h --forward-to https://staging.example/hook --timeout 120',
  ],
  parse: parseReplayOptions,
  run: replay,
});

async function replay(options: ReplayOptions, ctx: Context): Promise<number> {
  ctx.ownsTimeoutFlag = true;
  const events = await selectEvents(options, ctx.clock.now(), (message) => ctx.out.warn(message));
  if (options.forwardTo.length === 0) {
    if (events.length === 0) ctx.out.info(`No events in ${options.log} match.`);
    ctx.out.list(
      events.map((event) => event.record),
      eventListColumns((text) => colorStatus(ctx.out.chalk, text)),
    );
    return ExitCode.ok;
  }
  if (events.length === 0) {
    ctx.out.info(`No events in ${options.log} match: nothing to replay.`);
    return ExitCode.ok;
  }
  return forwardAll(events, options, ctx);
}

/** Reads and checks every line, then keeps the events --task and --since ask for. */
async function selectEvents(options: ReplayOptions, now: number, warn: (message: string) => void): Promise<LoggedEvent[]> {
  let log;
  try {
    log = await readEventLog(options.log);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${options.log}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder' : (code ?? (error as Error).message)}`, 'give the file webhook-listen --output wrote');
  }
  // A listener may be appending to the log right now: its unfinished last line is not an event yet.
  for (const bad of log.bad) if (bad.incomplete) warn(`${options.log}:${bad.line}: skipped ${bad.reason}`);
  const bad = log.bad.filter((line) => !line.incomplete);
  if (bad.length > 0) {
    const shown = bad.slice(0, 10).map((line) => `  ${options.log}:${line.line}: ${line.reason}`);
    if (bad.length > 10) shown.push(`  ... and ${bad.length - 10} more`);
    throw new UsageError(
      `${options.log} has ${bad.length} line(s) that are not stored events; nothing was sent:\n${shown.join('\n')}`,
      'fix or delete those lines',
    );
  }
  const since = options.since === undefined ? undefined : 'at' in options.since ? options.since.at : now - options.since.agoMs;
  return log.events.filter(
    (event) =>
      (options.taskId === undefined || event.record.body.id.toLowerCase() === options.taskId) &&
      (since === undefined || Date.parse(event.record.received_at) >= since),
  );
}

/** Posts every event to every target through the forwarder, until done, --timeout or Ctrl-C. */
async function forwardAll(events: LoggedEvent[], options: ReplayOptions, ctx: Context): Promise<number> {
  const settled = new Map<string, number>();
  const forwarders = options.forwardTo.map((target) => {
    settled.set(target, 0);
    const forwarder: Forwarder = new Forwarder(target, {
      onSettled: () => settled.set(target, (settled.get(target) ?? 0) + 1),
      onRetry: (_item, { reason, outageStarted }) => {
        if (outageStarted) ctx.out.warn(`forwarding to ${target} failed (${reason}); retrying with backoff`);
      },
      onRejected: (item, reason) => ctx.out.warn(`${target} ${reason} for the event of task ${item.label}; not retried`),
    });
    return forwarder;
  });
  ctx.out.info(`Replaying ${events.length} event(s) from ${options.log} to ${options.forwardTo.join(', ')}...`);
  for (const event of events) {
    const item = loggedForwardItem(event);
    for (const forwarder of forwarders) forwarder.enqueue(item);
  }

  // Ctrl-C ends the wait like the time limit does, and the summary still says what arrived.
  ctx.handlesInterrupt = true;
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  ctx.signal.addEventListener('abort', stop, { once: true });
  const limit = setTimeout(stop, options.timeoutMs);
  const done = await Promise.race([Promise.all(forwarders.map((forwarder) => forwarder.drain())).then(() => true), stopped.then(() => false)]);
  clearTimeout(limit);
  ctx.signal.removeEventListener('abort', stop);
  await Promise.all(forwarders.map((forwarder) => forwarder.stop()));

  let refused = 0;
  for (const forwarder of forwarders) {
    const { forwarded, rejected } = forwarder.stats;
    const left = events.length - (settled.get(forwarder.target) ?? 0);
    refused += rejected;
    ctx.out.info(
      `Forwarded ${forwarded} of ${events.length} to ${forwarder.target}${rejected ? `, ${rejected} refused by it` : ''}${left ? `, ${left} not delivered` : ''}.`,
    );
    if (left > 0) ctx.out.info(`To resend the rest: ${resumeCommand(options, forwarder.target, events[events.length - left] as LoggedEvent)}`);
  }
  if (ctx.signal.aborted) return ExitCode.interrupted;
  if (!done) {
    ctx.out.error(`error: gave up after ${options.timeoutMs / 1000}s with events not delivered (raise it with --timeout SEC).`);
    return ExitCode.network;
  }
  return refused > 0 ? ExitCode.serviceError : ExitCode.ok;
}

function resumeCommand(options: ReplayOptions, target: string, first: LoggedEvent): string {
  const task = options.taskId ? ` --task ${options.taskId}` : '';
  return `agentctl webhook-listen replay ${shellWord(options.log)} --forward-to ${shellWord(target)}${task} --since ${first.record.received_at}`;
}
