// `persistent chat ID`: a conversation on the web channel. Each line typed (or read from stdin) is
// sent as a message; the agent's replies and steps are streamed from its timeline as they come.
import { clearScreenDown, createInterface, cursorTo, moveCursor } from 'node:readline';
import { persistentAgents } from '../../api/persistent-agents.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import { checkUuid, parseSecondsFlag } from '../../contract/validate.js';
import type { Context } from '../../cli/context.js';
import { ExitCode, UsageError } from '../../errors.js';
import { shorten, wrapText } from '../../output/format.js';
import { sanitizeLine, sanitizeText } from '../../output/sanitize.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { printEvents } from './timeline.js';
import { completeMessage } from '../../core/web-message.js';
import { messageAuthor, messageBody } from '../../core/timeline-format.js';
import { followTimeline } from './timeline-follow.js';
import { explainPaused } from './paused.js';
import { reportError } from '../../cli/report.js';

/** The owner's web chat address for an agent; `user_id` comes from the service (a number or a numeric string). */

const isReply = (event: TimelineEvent): boolean => {
  const message = (event.message ?? event) as Record<string, unknown>;
  return event.kind === 'message' && (message.direction === 'outbound' || message.isOutbound === true);
};

export const command = defineCommand({
  name: 'chat',
  summary: 'talk with an agent on the web channel: each line is a message, replies stream in',
  args: [AGENT_ID_ARG],
  options: [
    { flags: '--sender <sender>', description: "who you are on the web channel (default: the owner's web address, web://user/<user_id>/agent/<id>)" },
    { flags: '--reply-timeout <sec>', description: 'without a terminal: how long to wait for the replies once the input ends', default: '120' },
  ],
  notes:
    'On a terminal: a prompt with line editing and history (up/down); each reply is printed whole under\n' +
    'the agent\'s name ("Fares> "), wrapped to the terminal (its width now, after a resize too); events\n' +
    'arriving while you type are printed above the prompt.\n' +
    'Ctrl-D or Ctrl-C ends the chat (exit 0).\n' +
    "Without one (piped stdin): each line is sent as a message, the agent's events are printed as they come\n" +
    '(--jsonl: one JSON event a line), and the command ends once the input has ended and every message has\n' +
    'its reply: exit 0, or 7 when --reply-timeout ran out first.\n' +
    'A message the service refuses (a paused agent answers 409: `agentctl persistent activate ID`) is\n' +
    'reported with what to do: at a terminal the chat goes on; piped, it ends there with that error.',
  exitCodes: { ...SERVICE_EXITS, 0: 'the chat ended (Ctrl-D or Ctrl-C; piped: once every reply came)', 7: 'piped: --reply-timeout ran out before a reply' },
  examples: [`agentctl persistent chat ${ID}`, `printf 'Check the fare again\\nAnd book it if under 100 EUR\\n' | agentctl persistent chat ${ID} --jsonl`],
  parse(input) {
    return {
      agentId: checkUuid(input.arg(0) ?? '', 'agent id'),
      sender: input.string('sender'),
      replyTimeoutMs: parseSecondsFlag(input.string('replyTimeout') ?? '120', '--reply-timeout', 1) * 1000,
    };
  },
  async run({ agentId, sender: senderFlag, replyTimeoutMs }, ctx) {
    if (senderFlag !== undefined && senderFlag.trim() === '') throw new UsageError('--sender must not be empty');
    const client = await ctx.client();
    // The chat speaks on the web channel, from the owner's web address to the agent's (src/core/web-message.ts).
    const { sender, recipient } = await completeMessage(client, agentId, { channel: 'web', sender: senderFlag, body: '' });
    const interactive = ctx.terminal.stdinIsTTY && ctx.terminal.stderrIsTTY;
    ctx.handlesInterrupt = true;

    const start = await persistentAgents.timeline(client, agentId, { limit: interactive ? 10 : 1 });
    if (interactive) printChatEvents(ctx, start.events);
    let sent = 0;
    let replies = 0;
    let inputEnded = false;
    let stop = false;
    // On a terminal, events are printed above the prompt: the prompt line (and what is being typed)
    // is cleared first and drawn again after.
    let aboveThePrompt = (print: () => void) => print();
    const ended = new AbortController();
    const following = followTimeline(ctx, client, agentId, start.newest_cursor, {
      onEvents(events) {
        replies += events.filter(isReply).length;
        // On a terminal the user has just typed their message: show only what came back.
        const shown = interactive ? events.filter((event) => event.kind !== 'message' || isReply(event)) : events;
        if (shown.length > 0) aboveThePrompt(() => printChatEvents(ctx, shown));
      },
      done: () => stop || (inputEnded && replies >= sent),
      stop: ended.signal,
    });
    const send = async (line: string) => {
      if (line.trim() === '') return;
      await persistentAgents.message(client, agentId, { channel: 'web', sender, recipient, body: line }).catch((error: unknown) => {
        throw explainPaused(error, agentId);
      });
      sent++;
    };

    if (interactive) {
      const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr as NodeJS.WritableStream, terminal: true, historySize: 200 });
      rl.setPrompt('you> ');
      const stderr = ctx.io.stderr as NodeJS.WritableStream;
      aboveThePrompt = (print) => {
        moveCursor(stderr, 0, -rl.getCursorPos().rows);
        cursorTo(stderr, 0);
        clearScreenDown(stderr);
        print();
        rl.prompt(true);
      };
      rl.prompt();
      const sending: Promise<void>[] = [];
      await new Promise<void>((resolve) => {
        // A message that fails (a paused agent, a network error) is reported above the prompt; the chat goes on.
        const failed = (error: unknown) => aboveThePrompt(() => reportError(error, ctx.redactor, (text) => ctx.io.stderr.write(text)));
        rl.on('line', (line) => sending.push(send(line).then(() => rl.prompt(), failed)));
        rl.on('SIGINT', () => rl.close());
        rl.on('close', resolve);
        ctx.signal.addEventListener('abort', () => rl.close(), { once: true });
      });
      stop = true;
      await Promise.all(sending); // a message typed just before Ctrl-D is still delivered
      await following;
      return ExitCode.ok;
    }

    try {
      for await (const line of createInterface({ input: ctx.io.stdin, crlfDelay: Infinity })) {
        if (ctx.signal.aborted) break;
        await send(line);
      }
    } catch (error) {
      // The next lines would fail the same way: the chat ends with this error, and so does the follow
      // (its polls would keep the process alive after the answer).
      stop = true;
      ended.abort();
      await following;
      throw error;
    }
    inputEnded = true;
    let timedOut = false;
    const replied = new AbortController();
    const deadline = ctx.clock.sleep(replyTimeoutMs, AbortSignal.any([replied.signal, ctx.signal])).then(
      () => {
        timedOut = stop = true;
      },
      () => undefined,
    );
    try {
      await following;
    } finally {
      replied.abort();
      await deadline;
    }
    if (ctx.signal.aborted) return ExitCode.interrupted;
    if (timedOut) {
      ctx.out.error(`${sent - replies} of ${sent} message${sent === 1 ? '' : 's'} had no reply after ${replyTimeoutMs / 1000}s; see \`agentctl persistent timeline ${agentId} --follow\``);
      return ExitCode.waitTimedOut;
    }
    return ExitCode.ok;
  },
});

/** A chat line's label: "you> " for your messages (as the prompt), the agent's name for its replies. */
function chatLabel(event: TimelineEvent): string | undefined {
  if (event.kind !== 'message') return undefined;
  const author = messageAuthor(event);
  if (!isReply(event) && author !== 'you') return undefined; // someone on another channel: a timeline line
  return `${shorten(sanitizeLine(author), NAME_WIDTH)}> `;
}
/** An agent's name longer than this is cut in the label: the reply needs the width. */
const NAME_WIDTH = 20;

/** Your messages and the agent's replies whole, wrapped under their label on a terminal; other events as timeline lines. */
function printChatEvents(ctx: Context, events: TimelineEvent[]): void {
  if (ctx.out.settings.format !== 'table') return printEvents(ctx, events, true);
  for (const event of events) {
    const label = chatLabel(event);
    const body = label === undefined ? undefined : messageBody(event);
    if (label === undefined || body === undefined) {
      printEvents(ctx, [event], true);
      continue;
    }
    // Read at each message: a resized terminal wraps the next one to its new width.
    const lines = wrapText(sanitizeText(body), ctx.out.settings.width - label.length);
    lines.forEach((line, i) => ctx.out.line(i === 0 ? label + line : line && ' '.repeat(label.length) + line));
  }
}
