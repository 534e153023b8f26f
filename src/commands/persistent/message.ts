import { checkUuid } from '../../contract/validate.js';
import { InputError, UsageError } from '../../errors.js';
import { deliverMessage, type MessageDraft } from '../../core/web-message.js';
import { readJsonArgument, readStdin } from '../../cli/input.js';
import { defineCommand, type OptionSpec, type ParseInput } from '../../cli/define.js';
import { MESSAGE_CHANNELS } from '../../contract/enums.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { explainPaused, explainNoServiceMcp } from './paused.js';
import { timelineLine, timelinePlainLine } from '../../core/timeline-format.js';

export async function parseMessage(body: string, input: ParseInput): Promise<MessageDraft> {
  const metadataArgument = input.string('metadata');
  if (body === '-' && /^@?-$/.test((metadataArgument ?? '').trim())) {
    throw new UsageError('stdin can feed the body or --metadata, not both', 'put the metadata in a file: --metadata @meta.json');
  }
  const text = body === '-' ? await readStdin(input.stdin) : body;
  if (text.trim() === '') throw new UsageError('the message body is empty', 'pass the text as an argument, or - to read it from stdin');
  const sender = input.string('sender');
  if (sender !== undefined && sender.trim() === '') throw new UsageError('--sender must not be empty');
  const message: MessageDraft = { channel: input.string('channel') ?? '', sender, body: text };
  const [recipient, subject] = [input.string('recipient'), input.string('subject')];
  if (recipient !== undefined) message.recipient = recipient;
  if (subject !== undefined) message.subject = subject;
  if (metadataArgument !== undefined) {
    const metadata = await readJsonArgument(metadataArgument, '--metadata', input.stdin);
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      throw new UsageError('--metadata must be a JSON object, e.g. {"ticket": 42}');
    }
    message.metadata = metadata as Record<string, unknown>;
  }
  return message;
}

const options: OptionSpec[] = [
  { flags: '--channel <channel>', description: 'channel the message arrives on', choices: MESSAGE_CHANNELS, required: true },
  { flags: '--sender <sender>', description: "who sends it: the owner's address on that channel (on web leave it out: the service sends as the key's user, the owner)" },
  { flags: '--recipient <recipient>', description: "the agent's own address on that channel; best left out (the service then uses the agent's own). Any other is refused before sending" },
  { flags: '--subject <subject>', description: 'subject line (email)' },
  { flags: '--metadata <json>', description: 'extra JSON object: inline, @file or - for stdin' },
];

export const command = defineCommand({
  name: 'message',
  summary: 'send a message to an agent, as on any of its channels',
  notes:
    "On web the message goes through the service's own MCP endpoint (POST /api/v1/mcp/, gobii_send_agent_message),\n" +
    "the one way in on the web that the service processes for an agent made through the API. On email and the\n" +
    "other channels it goes to POST /agents/ID/messages/, to the agent's own address on that channel.\n" +
    "A --recipient that the service does not show as the agent's own is refused before anything is sent: the\n" +
    'service would store the message with no owner (never processed) or hand it to another agent.\n' +
    "A service without the MCP endpoint (before gobii-platform 2.20.0) cannot take a web message: send by email.\n" +
    'See docs/talking-to-an-agent.md.',
  args: [AGENT_ID_ARG, { name: '<body>', description: 'the message text (- reads stdin)' }],
  options,
  examples: [
    `agentctl persistent message ${ID} "Please check the price again" --channel web`,
    `agentctl persistent message ${ID} "Please check the price again" --channel email --sender owner@example.com`,
    `git log -1 --format=%B | agentctl persistent message ${ID} - --channel email --sender owner@example.com --subject "New release"`,
  ],
  parse: async (input) => ({ agentId: checkUuid(input.arg(0) ?? '', 'agent id'), message: await parseMessage(input.arg(1) ?? '', input) }),
  async run({ agentId, message }, ctx) {
    const client = await ctx.client();
    const delivered = await deliverMessage(client, agentId, message).catch((error: unknown) => {
      throw explainNoServiceMcp(explainPaused(asFlag(error), agentId), agentId);
    });
    if (ctx.out.machine) return ctx.out.json(delivered);
    const { event } = delivered;
    ctx.out.line(ctx.out.settings.format === 'plain' ? timelinePlainLine({ ...event, kind: event.kind ?? 'message' }) : timelineLine({ ...event, kind: event.kind ?? 'message' }));
    ctx.out.success(`Message delivered to agent ${agentId}${delivered.via === 'service-mcp' ? " (through the service's MCP endpoint)" : ''}.`);
  },
});

/** The core's refusals, in the command line's words (its flags). */
function asFlag(error: unknown): unknown {
  if (!(error instanceof InputError)) return error;
  if (error.field === 'sender') return new UsageError(`--sender ${error.problem}`, error.problem.startsWith('is needed') ? 'e.g. --sender owner@example.com' : undefined);
  return new UsageError(`--${error.field} ${error.problem}`);
}
