import { persistentAgents } from '../../api/persistent-agents.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { checkUuid } from '../../contract/validate.js';
import { InputError, UsageError } from '../../errors.js';
import { completeMessage, type MessageDraft } from '../../core/web-message.js';
import { readJsonArgument, readStdin } from '../../cli/input.js';
import { defineCommand, type OptionSpec, type ParseInput } from '../../cli/define.js';
import { MESSAGE_CHANNELS } from '../../contract/enums.js';
import { AGENT_ID_ARG, ID } from './options.js';
import { explainPaused } from './paused.js';
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
  { flags: '--sender <sender>', description: "who sends it: the owner's address on that channel (on web, default: the owner's web address, the only web sender the service hears)" },
  { flags: '--recipient <recipient>', description: "the agent's address on that channel (needed when the agent has no endpoint for it; on web, default: the agent's)" },
  { flags: '--subject <subject>', description: 'subject line (email)' },
  { flags: '--metadata <json>', description: 'extra JSON object: inline, @file or - for stdin' },
];

export const command = defineCommand({
  name: 'message',
  summary: 'send a message to an agent, as on any of its channels',
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
    const body = await completeMessage(client, agentId, message).catch(asSenderFlag);
    const answer = await persistentAgents.message(client, agentId, body).catch((error: unknown) => {
      throw explainPaused(error, agentId);
    });
    if (ctx.out.machine) return ctx.out.json(answer);
    const event = answer.event as TimelineEvent;
    ctx.out.line(ctx.out.settings.format === 'plain' ? timelinePlainLine({ ...event, kind: event.kind ?? 'message' }) : timelineLine({ ...event, kind: event.kind ?? 'message' }));
    ctx.out.success(`Message delivered to agent ${agentId}.`);
  },
});

/** The core's refusal of a missing sender, in the command line's words. */
function asSenderFlag(error: unknown): never {
  if (error instanceof InputError && error.field === 'sender') throw new UsageError(`--sender ${error.problem}`, 'e.g. --sender owner@example.com');
  throw error;
}
