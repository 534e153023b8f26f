// schedule_preview: the schedule grammar offline, its fire times in UTC (as schedules run) and, asked
// for, in the user's time zone.
import * as z from 'zod';
import { inZone, previewRequest, previewSchedule } from '../../core/schedule-preview.js';
import { defineTool } from '../tool.js';

const schedulePreview = defineTool({
  name: 'schedule_preview',
  title: 'Preview a schedule',
  description:
    'Check a schedule expression offline with the grammar the service accepts, describe it, and list its next fire times. ' +
    "Schedules run in UTC: for a local time, ask the user's time zone, convert, and check here with timezone. Sends nothing to the service.",
  kind: 'read',
  toolset: 'schedule',
  openWorld: false,
  output: z.object({
    expression: z.string(),
    valid: z.boolean().describe('false only where the service answers the expression with a 500 (its parser crashes): see warning'),
    description: z.string(),
    next: z.array(z.string()),
    warning: z.string().optional(),
    timezone: z.string().optional(),
    next_local: z.array(z.string()).optional(),
  }),
  input: z.strictObject({
    expression: z.string().describe('the schedule, in UTC: @daily, "@every 1h 30m", "0 9 * * mon-fri", ...'),
    count: z.number().int().min(1).max(100).default(5).describe('how many fire times'),
    from: z.string().optional().describe('list fire times after this ISO 8601 instant (default now)'),
    timezone: z.string().optional().describe("the user's IANA time zone (e.g. Europe/Oslo): also list the fire times there"),
  }),
  async run({ expression, count, from, timezone }, call) {
    const request = previewRequest({ expression, count, from, timezone }, new Date(call.clock.now()));
    const zone = request.timeZone;
    const preview = previewSchedule(request.expression, request.from, request.count);
    const summary = preview.warning
      ? `Not accepted or refused: ${preview.warning}. Do not save it; write the schedule another way.`
      : `${preview.description}\nNext (UTC, as the schedule runs): ${preview.next.join(', ') || 'none'}`;
    if (!zone) return { data: { ...preview }, summary };
    const { local, offsetChanges } = inZone(preview.next, zone);
    const shift = offsetChanges ? `\n${zone} changes its UTC offset (daylight saving) among these times: the schedule runs in UTC, so it fires at another local hour after the change.` : '';
    return { data: { ...preview, timezone: zone, next_local: local }, summary: `${summary}\nIn ${zone}: ${local.join(', ') || 'none'}${shift}` };
  },
});

export const SCHEDULE_TOOLS = [schedulePreview];
