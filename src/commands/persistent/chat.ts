// `persistent chat ID`: a conversation with an agent. Each line typed (or read from stdin) is sent as
// a message; the agent's replies and steps are streamed from its timeline as they come. On the web
// (the default) both go through the service's own MCP endpoint: its send, and its event wait over
// durable cursors (src/core/conversation.ts); with --channel email, the messages route to the agent's
// own address and the REST timeline.
import { clearScreenDown, createInterface, cursorTo, moveCursor } from 'node:readline';
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
import { deliverMessage } from '../../core/web-message.js';
import { openConversation } from './chat-channel.js';
import { messageAuthor, messageBody } from '../../core/timeline-format.js';
import { explainNoServiceMcp, explainPaused } from './paused.js';
import { reportError } from '../../cli/report.js';

const isReply = (event: TimelineEvent): boolean => {
  const message = (event.message ?? event) as Record<string, unknown>;
  return event.kind === 'message' && (message.direction === 'outbound' || message.isOutbound === true);
};

export const command = defineCommand({
  name: 'chat',
  summary: 'talk with an agent on the web channel: each line is a message, replies stream in',
  args: [AGENT_ID_ARG],
  options: [
    { flags: '--channel <channel>', description: "web (through the service's MCP endpoint) or email (to the agent's own address, from --sender)", choices: ['web', 'email'], default: 'web' },
    { flags: '--sender <sender>', description: "on email: the owner's e-mail address (needed); on web leave it out (the service sends as the key's user, the owner)" },
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
    'reported with what to do: at a terminal the chat goes on; piped, it ends there with that error.\n' +
    "On web, messages and replies go through the service's MCP endpoint (gobii-platform 2.20.0 or later):\n" +
    "the only web path the service processes for an agent made through the API. On an older service, chat\n" +
    "by email instead (--channel email --sender you@example.com). See docs/talking-to-an-agent.md.",
  exitCodes: { ...SERVICE_EXITS, 0: 'the chat ended (Ctrl-D or Ctrl-C; piped: once every reply came)', 7: 'piped: --reply-timeout ran out before a reply' },
  examples: [
    `agentctl persistent chat ${ID}`,
    `printf 'Check the fare again\\nAnd book it if under 100 EUR\\n' | agentctl persistent chat ${ID} --jsonl`,
    `agentctl persistent chat ${ID} --channel email --sender owner@example.com`,
  ],
  parse(input) {
    const channel: 'web' | 'email' = input.string('channel') === 'email' ? 'email' : 'web';
    const sender = input.string('sender');
    if (sender !== undefined && sender.trim() === '') throw new UsageError('--sender must not be empty');
    if (channel === 'email' && sender === undefined) throw new UsageError("--channel email needs --sender: the owner's e-mail address", 'e.g. --sender owner@example.com');
    return {
      agentId: checkUuid(input.arg(0) ?? '', 'agent id'),
      channel,
      sender,
      replyTimeoutMs: parseSecondsFlag(input.string('replyTimeout') ?? '120', '--reply-timeout', 1) * 1000,
    };
  },
  async run({ agentId, channel, sender, replyTimeoutMs }, ctx) {
    const client = await ctx.client();
    const interactive = ctx.terminal.stdinIsTTY && ctx.terminal.stderrIsTTY;
    ctx.handlesInterrupt = true;

    const conversation = await openConversation(ctx, client, agentId, channel, sender, interactive ? 10 : 1);
    if (interactive) printChatEvents(ctx, conversation.events);
    let sent = 0;
    let replies = 0;
    let inputEnded = false;
    let stop = false;
    // On a terminal, events are printed above the prompt: the prompt line (and what is being typed)
    // is cleared first and drawn again after.
    let aboveThePrompt = (print: () => void) => print();
    const ended = new AbortController();
    const following = conversation.follow({
      onEvents(events) {
        replies += events.filter(isReply).length;
        // On a terminal the user has just typed their message: show only what came back.
        const shown = interactive ? events.filter((event) => event.kind !== 'message' || isReply(event)) : events;
        if (shown.length > 0) aboveThePrompt(() => printChatEvents(ctx, shown));
      },
      done: () => stop || (inputEnded && replies >= sent),
      stop: ended.signal,
    });
    const end = () => {
      stop = true;
      ended.abort(); // a wait of the service's in flight ends now, not when it runs out
    };
    const send = async (line: string) => {
      if (line.trim() === '') return;
      await deliverMessage(client, agentId, { channel, sender: channel === 'web' ? undefined : sender, body: line }).catch((error: unknown) => {
        throw explainNoServiceMcp(explainPaused(error, agentId), agentId);
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
      await Promise.all(sending); // a message typed just before Ctrl-D is still delivered
      end();
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
      end();
      await following;
      throw error;
    }
    inputEnded = true;
    let timedOut = false;
    const replied = new AbortController();
    const deadline = ctx.clock.sleep(replyTimeoutMs, AbortSignal.any([replied.signal, ctx.signal])).then(
      () => {
        timedOut = true;
        end();
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
