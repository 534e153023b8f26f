import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { ExitCode, UsageError, type ExitCodeValue } from '../../errors.js';
import type { Forwarder } from '../../webhooks/forwarder.js';
import { startListener, type Listener } from '../../webhooks/listener.js';
import { JsonLinesFile } from '../../webhooks/output-file.js';
import { eventLine } from '../../webhooks/event-log.js';
import { eventPrinter } from './printer.js';
import { listenFlags, parseListenConfig, type ListenConfig } from './options.js';
import { listenError } from '../common/listen.js';

type Ending = 'count' | 'timeout' | 'interrupt';

const EXAMPLE_TASK_ID = '3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f';
/** How long Ctrl-C lets forwards already under way end (a second Ctrl-C exits at once). */
const INTERRUPT_GRACE_MS = 2_000;

export const command = defineCommand({
  name: 'webhook-listen',
  summary: 'run a local HTTP listener for task-completion webhooks: check, print, store and forward each event',
  options: [
    { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
    { flags: '--port <port>', description: 'port to listen on (0 = any free port)', default: '0' },
    { flags: '--path <url-path>', description: 'URL path to accept (default: a random secret segment; other paths get 404)' },
    { flags: '--print-url', description: 'print the URL to register alone on stdout (first line), before any event' },
    { flags: '--output <file>', description: 'append each event as a JSON line, fsynced before the service gets its 200; also keeps the forward queue across restarts' },
    {
      flags: '--forward-to <url>',
      description: 're-post each event (body, content type, user agent) here, in order, retrying while it is down (repeatable)',
      repeatable: true,
    },
    { flags: '--task <id>', description: "keep only this task's events (others are acknowledged and dropped)" },
    { flags: '--count <n>', description: 'exit after N events' },
    { flags: '--once', description: 'exit after the first event (--count 1)' },
    { flags: '--max-body <bytes>', description: 'largest body accepted; larger ones get 413', default: '1048576' },
    { flags: '--drain-timeout <sec>', description: 'on --count/--timeout exit, how long to wait for forwarding to finish', default: '30' },
  ],
  notes:
    'Each POST is checked against the webhook shapes of the spec (completed, failed, cancelled):\n' +
    'valid events are answered 200 and printed (a table row on a terminal, tab-separated when piped,\n' +
    'one JSON object per line with --json/--jsonl: {received_at, headers, body}); invalid ones get\n' +
    '400/405/413/415 with the reason, reported on stderr.\n' +
    '--timeout SEC (a global option) is how long to listen: exit 7 if no event came in that time\n' +
    '(with --count N: fewer than N). Ctrl-C stops cleanly with a summary and exits 130: forwards already\n' +
    'under way end first (up to 2 s), nothing more is sent; a second Ctrl-C exits at once.\n' +
    'Forwarding keeps 8 deliveries in flight on one keep-alive connection per target, in the order\n' +
    'received; while a target fails (5xx, 408, 429, a reset or refused connection, a timeout), one at\n' +
    'a time, earliest first, with backoff (Retry-After honoured; the few already sent behind a failed\n' +
    'event may arrive before its retry); a 4xx or a lasting error (unknown host) is not retried. Only a\n' +
    '2xx is a delivery: a redirect loop, a redirect without Location or a 304 is refused like a 4xx. Exit 8\n' +
    'when queued events could not be forwarded before --drain-timeout.\n' +
    'With --output, events acknowledged but not yet forwarded survive Ctrl-C, a crash or SIGKILL: FILE.forwarded\n' +
    'records how far each --forward-to target got in FILE, and the next start with the same --output\n' +
    'and --forward-to sends the rest first, in order (an event may arrive twice after a crash, none is\n' +
    'skipped). The exit summary says how many wait. `webhook-listen replay FILE` resends on demand.\n' +
    'A last line of FILE torn by a crash (never acknowledged) is moved to FILE.torn at start.',
  exitCodes: {
    0: 'stopped after --once/--count, or by SIGTERM',
    1: 'the listener failed',
    2: '',
    7: '--timeout ran out before an event came (with --count N: fewer than N)',
    8: 'queued events could not be forwarded before --drain-timeout',
    130: 'stopped by Ctrl-C, with a summary',
  },
  examples: [
    'agentctl webhook-listen',
    'agentctl webhook-listen --port 9000 --print-url --once --jsonl   # line 1: the URL, line 2: the event',
    'agentctl webhook-listen --port 9000 --path /hooks/s3cret --output events.jsonl --forward-to http://127.0.0.1:3000/hook',
    `agentctl webhook-listen --task ${EXAMPLE_TASK_ID} --once --timeout 600 --jsonl`,
    'agentctl webhook-listen replay events.jsonl --forward-to http://127.0.0.1:3000/hook --since 1h',
  ],
  parse: (input) => parseListenConfig(listenFlags(input), input.globals.timeout),
  run: listen,
});

async function listen(config: ListenConfig, ctx: Context): Promise<number> {
  // Here the global --timeout is how long to listen, not one request's limit.
  ctx.ownsTimeoutFlag = true;
  // --fields must name keys of the printed records: found out now, not on the first event.
  if (ctx.out.machine) ctx.out.checkFields([{}], ['received_at', 'headers', 'body']);
  const output = config.outputPath ? await openOutput(config.outputPath, ctx) : undefined;
  const printer = eventPrinter(ctx);
  // Forwarding (and undici with it, ~0.5 MB of code) loads only with --forward-to.
  const forwarding = config.forwardTo.length > 0 ? await import('./forwarding.js') : undefined;
  // With --output, the log is the forward queue's durable copy: resume what an earlier run left.
  const resume = output && forwarding ? await forwarding.readResumePlan(ctx, output, config.forwardTo) : undefined;
  const cursor = resume?.cursor;
  const forwarders = forwarding ? config.forwardTo.map((target) => forwarding.makeForwarder(ctx, target, cursor)) : [];
  for (const forwarder of forwarders) for (const item of resume?.pending.get(forwarder.target) ?? []) forwarder.enqueue(item);

  let finish: (ending: Ending) => void = () => undefined;
  const ended = new Promise<Ending>((resolve) => (finish = resolve));

  let listener: Listener;
  try {
    listener = await startListener({
      host: config.host,
      port: config.port,
      path: config.path,
      maxBodyBytes: config.maxBodyBytes,
      limit: config.count,
      filter: config.taskId ? (payload) => payload.id.toLowerCase() === config.taskId : undefined,
      persist: output ? (event) => output.appendLine(eventLine(event.record, event.raw)) : undefined,
      onEvent: (event, sequence) => {
        printer.print(event.record);
        if (forwarding) {
          const item = forwarding.forwardItem(event);
          for (const forwarder of forwarders) forwarder.enqueue(item);
        }
        if (config.count !== undefined && sequence >= config.count) finish('count');
      },
      onRejected: (rejection) =>
        ctx.out.warn(`answered ${rejection.status} to ${rejection.method} ${rejection.path}: ${rejection.reason}`),
      onIgnored: (event) => {
        if (ctx.verbose) ctx.out.info(`ignored the event of task ${event.record.body.id} (not --task ${config.taskId})`);
      },
      onError: (error) => ctx.out.error(`error: could not write the event to ${config.outputPath}: ${error.message} (answered 500)`),
    });
  } catch (error) {
    await Promise.all(forwarders.map((forwarder) => forwarder.stop()));
    await cursor?.flush();
    await output?.close();
    throw listenError(error, config.host, config.port);
  }

  if (config.printUrl) ctx.out.line(listener.url);
  ctx.out.info(
    `Listening for task webhooks${config.printUrl ? '' : ` at ${listener.url}`}` +
      `${config.taskId ? ` (task ${config.taskId} only)` : ''}${config.outputPath ? `, appending to ${config.outputPath}` : ''}` +
      `${forwarders.length ? `, forwarding to ${config.forwardTo.join(', ')}` : ''}. Ctrl-C stops.`,
  );

  const timer = config.timeoutMs === undefined ? undefined : setTimeout(() => finish('timeout'), config.timeoutMs);
  // Ctrl-C closes the listener cleanly (answering what is under way, closing the file) and prints a
  // summary; a second Ctrl-C exits at once (bin/agentctl.js).
  ctx.handlesInterrupt = true;
  const onInterrupt = () => {
    ctx.io.stderr.write('\n');
    finish('interrupt');
  };
  if (ctx.signal.aborted) onInterrupt();
  else ctx.signal.addEventListener('abort', onInterrupt, { once: true });
  let ending: Ending;
  try {
    ending = await ended;
  } finally {
    if (timer) clearTimeout(timer);
  }

  // Stop taking events; those being stored are answered first.
  await listener.close();
  printer.flush();
  const drained = await endForwarding(forwarders, ending, config, ctx);
  await cursor?.flush();
  await output?.close();
  ctx.signal.removeEventListener('abort', onInterrupt);

  ctx.out.info(summary(listener, forwarders, ending, config.outputPath));
  const code = exitCode(ending, listener, config, drained);
  if (ending === 'timeout' && code === ExitCode.waitTimedOut) {
    const wanted = config.count === undefined ? 'no event arrived' : `${listener.stats.received} of ${config.count} events arrived`;
    ctx.out.error(`Timed out after ${(config.timeoutMs ?? 0) / 1000}s: ${wanted}.`);
  }
  if (!drained) ctx.out.error(`error: some events could not be forwarded before the drain timeout (see above${config.outputPath ? '; they are kept in --output' : ''}).`);
  return code;
}

/**
 * Stops the forwarders: on --count or --timeout once their queues are sent (up to --drain-timeout);
 * on Ctrl-C once the forwards under way end, sending nothing more (cut short, they would count as not
 * forwarded, and --output would send them again on the next start). Whether every queue was sent.
 */
async function endForwarding(forwarders: Forwarder[], ending: Ending, config: ListenConfig, ctx: Context): Promise<boolean> {
  let drained = true;
  if (ending === 'interrupt') {
    await Promise.all(forwarders.map((forwarder) => forwarder.finishInFlight(Math.min(config.drainTimeoutMs, INTERRUPT_GRACE_MS))));
  } else if (forwarders.length > 0) {
    const waiting = forwarders.reduce((sum, forwarder) => sum + forwarder.queued, 0);
    if (waiting > 0) ctx.out.info(`Forwarding ${waiting} queued event(s) (up to ${config.drainTimeoutMs / 1000}s)...`);
    const results = await Promise.all(forwarders.map((forwarder) => forwarder.drain(config.drainTimeoutMs)));
    drained = results.every(Boolean);
  }
  await Promise.all(forwarders.map((forwarder) => forwarder.stop()));
  return drained;
}

function exitCode(ending: Ending, listener: Listener, config: ListenConfig, drained: boolean): ExitCodeValue {
  if (ending === 'interrupt') return ExitCode.interrupted;
  if (ending === 'timeout') {
    const enough = config.count === undefined ? listener.stats.received > 0 : listener.stats.received >= config.count;
    if (!enough) return ExitCode.waitTimedOut;
  }
  return drained ? ExitCode.ok : ExitCode.network;
}

function summary(listener: Listener, forwarders: Forwarder[], ending: Ending, outputPath: string | undefined): string {
  const { received, rejected, ignored, failed } = listener.stats;
  const extra = [rejected ? `${rejected} request(s) rejected` : '', ignored ? `${ignored} ignored (other tasks)` : '', failed ? `${failed} not stored` : '']
    .filter(Boolean)
    .join(', ');
  const lines = [`${ending === 'interrupt' ? 'Stopped. ' : ''}Received ${received} event(s)${extra ? ` (${extra})` : ''}.`];
  for (const forwarder of forwarders) {
    const { forwarded, rejected: refused, queued } = forwarder.stats;
    const left = !queued
      ? ''
      : outputPath
        ? `, ${queued} not forwarded yet (kept in ${outputPath}: the next start with the same --output and --forward-to sends them first)`
        : `, ${queued} still queued (not delivered, and lost: only --output keeps them for the next start)`;
    lines.push(`Forwarded ${forwarded} to ${forwarder.target}${refused ? `, ${refused} refused by it` : ''}${left}.`);
  }
  return lines.join('\n');
}

async function openOutput(path: string, ctx: Context): Promise<JsonLinesFile> {
  try {
    const file = await JsonLinesFile.open(path);
    const { torn } = file;
    if (torn) ctx.out.warn(`${path}: its last line was torn (${torn.bytes} bytes cut short by a crash, never acknowledged): moved to ${torn.path}; new events start on a line of their own`);
    return file;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--output ${path}: ${code ?? (error as Error).message}`, code ? 'give a file in a folder that exists and is writable' : 'give a log webhook-listen wrote, or a new file');
  }
}
