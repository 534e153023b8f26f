import type { Context } from '../../cli/context.js';
import { colorStatus } from '../../output/color.js';
import { columnsForFields, eventRow, plainEventLine, tableHeader, tableRow } from '../../webhooks/format.js';
import type { EventRecord } from '../../webhooks/listener.js';
import { isServiceUserAgent } from '../../webhooks/payload.js';

/**
 * Prints events as they come: a JSON object per line, tab-separated rows, or table rows. Lines
 * that arrive together are written together (once per turn of the event loop): a pipe write is a
 * system call, and a busy listener gets hundreds of events between two turns.
 */
export function eventPrinter(ctx: Context): { print: (record: EventRecord) => void; flush: () => void } {
  let batch: string[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (batch.length > 0) ctx.out.line(batch.join('\n'));
    batch = [];
  };
  const line = (text: string) => {
    batch.push(text);
    scheduled ??= setImmediate(flush);
  };
  return { print: recordPrinter(ctx, line), flush };
}

function recordPrinter(ctx: Context, line: (text: string) => void): (record: EventRecord) => void {
  const { format, fields, width } = ctx.out.settings;
  const seenAgents = new Set<string>();
  let headerShown = false;
  const columns = columnsForFields(fields);
  return (record) => {
    const agent = record.headers['user-agent'] ?? '';
    if (!isServiceUserAgent(agent) && !seenAgents.has(agent)) {
      seenAgents.add(agent);
      ctx.out.warn(`an event came from user agent "${agent || 'none'}"; the service sends <Service>-AgentWebhook/<version>`);
    }
    if (format === 'json' || format === 'jsonl') {
      // One object per line in both modes (a stream of events is not one document); --fields and --jq apply.
      ctx.out.jsonLine(record);
      return;
    }
    const row = eventRow(record);
    if (format === 'plain') {
      line(plainEventLine(row, fields));
      return;
    }
    if (!headerShown) {
      headerShown = true;
      line(ctx.out.chalk.bold(tableHeader(columns, width)));
    }
    line(tableRow(columns, row, width, (key, text) => (key === 'status' ? colorStatus(ctx.out.chalk, text) : text)));
  };
}

