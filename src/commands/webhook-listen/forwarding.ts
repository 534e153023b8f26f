// The forwarding side of `webhook-listen`: resuming what an earlier run left in --output, and one
// Forwarder per --forward-to target that reports on the context as deliveries fail and recover.
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../errors.js';
import { cursorPath, type ForwardCursor } from '../../webhooks/forward-cursor.js';
import { Forwarder, type ForwardItem } from '../../webhooks/forwarder.js';
import type { ReceivedEvent } from '../../webhooks/listener.js';
import type { JsonLinesFile } from '../../webhooks/output-file.js';
import { planResume, type ResumePlan } from '../../webhooks/resume.js';

/** Reads the cursor beside the log and, per target, the logged events it has not had yet. */
export async function readResumePlan(ctx: Context, output: JsonLinesFile, targets: string[]): Promise<ResumePlan> {
  let warned = false;
  let plan: ResumePlan;
  try {
    plan = await planResume(output.path, output.size, targets, {
      onError: (error) => {
        if (!warned) ctx.out.warn(`could not update ${cursorPath(output.path)} (${error.message}); a restart may forward some events twice`);
        warned = true;
      },
    });
  } catch (error) {
    await output.close();
    throw new UsageError(`--output ${output.path}: ${(error as Error).message}`);
  }
  for (const target of plan.reset) {
    ctx.out.warn(`${cursorPath(output.path)} points past the end of ${output.path} for ${target} (was the log replaced?); forwarding from its end`);
  }
  for (const bad of plan.bad) ctx.out.warn(`${output.path}:${bad.line}: skipped, not an event (${bad.reason})`);
  for (const [target, pending] of plan.pending) {
    if (pending.length > 0) ctx.out.info(`Resuming: ${pending.length} event(s) in ${output.path} were not forwarded to ${target} yet; sending them first.`);
  }
  return plan;
}

export function forwardItem(event: ReceivedEvent): ForwardItem {
  return {
    body: event.raw,
    contentType: event.record.headers['content-type'] ?? 'application/json',
    userAgent: event.record.headers['user-agent'] ?? undefined,
    label: event.record.body.id,
    position: event.position,
  };
}

export function makeForwarder(ctx: Context, target: string, cursor: ForwardCursor | undefined): Forwarder {
  const forwarder: Forwarder = new Forwarder(target, {
    onSettled: (item) => {
      if (cursor && item.position !== undefined) cursor.advance(target, item.position);
    },
    onRetry: (item, { reason, attempt, delayMs, outageStarted }) => {
      if (outageStarted) {
        ctx.out.warn(`forwarding to ${target} failed (${reason}); retrying with backoff, ${forwarder.queued} event(s) queued`);
      } else if (ctx.verbose) {
        ctx.out.info(`forward ${item.label} -> ${target}: attempt ${attempt} failed (${reason}); next in ${Math.round(delayMs)} ms`);
      }
    },
    onDelivered: (_item, recovered) => {
      if (recovered) ctx.out.info(`forwarding to ${target} works again (${forwarder.queued - 1} more queued)`);
    },
    onRejected: (item, reason) => ctx.out.warn(`${target} ${reason} for the event of task ${item.label}; not retried`),
  });
  return forwarder;
}
