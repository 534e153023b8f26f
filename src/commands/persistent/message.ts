import { persistentAgents, type MessageBody } from '../../api/persistent-agents.js';
import type { TimelineEvent } from '../../api/schemas/persistent-agent.js';
import { checkUuid } from '../../contract/validate.js';
import { UsageError } from '../../errors.js';
import { readJsonArgument, readStdin } from '../../cli/input.js';
import type { CommandRun } from '../../cli/lazy.js';
import { timelineLine, timelinePlainLine } from './timeline-format.js';

export async function parseMessage(body: string, options: Record<string, unknown>, stdin: NodeJS.ReadableStream): Promise<MessageBody> {
  if (body === '-' && /^@?-$/.test(String(options.metadata ?? '').trim())) {
    throw new UsageError('stdin can feed the body or --metadata, not both', 'put the metadata in a file: --metadata @meta.json');
  }
  const text = body === '-' ? await readStdin(stdin) : body;
  if (text.trim() === '') throw new UsageError('the message body is empty', 'pass the text as an argument, or - to read it from stdin');
  const sender = String(options.sender);
  if (sender.trim() === '') throw new UsageError('--sender must not be empty');
  const message: MessageBody = { channel: String(options.channel), sender, body: text };
  if (options.recipient !== undefined) message.recipient = String(options.recipient);
  if (options.subject !== undefined) message.subject = String(options.subject);
  if (options.metadata !== undefined) {
    const metadata = await readJsonArgument(String(options.metadata), '--metadata', stdin);
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      throw new UsageError('--metadata must be a JSON object, e.g. {"ticket": 42}');
    }
    message.metadata = metadata as Record<string, unknown>;
  }
  return message;
}

export const run: CommandRun = async (ctx, [id, body], options) => {
  const agentId = checkUuid(String(id), 'agent id');
  const message = await parseMessage(String(body), options, ctx.io.stdin);
  const answer = await persistentAgents.message(await ctx.client(), agentId, message);
  if (ctx.out.machine) return ctx.out.json(answer);
  const event = answer.event as TimelineEvent;
  ctx.out.line(ctx.out.settings.format === 'plain' ? timelinePlainLine({ ...event, kind: event.kind ?? 'message' }) : timelineLine({ ...event, kind: event.kind ?? 'message' }));
  ctx.out.success(`Message delivered to agent ${agentId}.`);
};
