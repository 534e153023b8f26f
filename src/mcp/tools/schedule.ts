// schedule_preview: the schedule grammar offline.
import * as z from 'zod';
import { parseInstant, previewSchedule } from '../../core/schedule-preview.js';
import { defineTool } from '../tool.js';

const schedulePreview = defineTool({
  name: 'schedule_preview',
  title: 'Preview a schedule',
  description: 'Check a schedule expression offline with the grammar the service accepts, describe it, and list its next fire times (UTC). Sends nothing to the service.',
  kind: 'read',
  toolset: 'schedule',
  openWorld: false,
  output: z.object({ expression: z.string(), valid: z.literal(true), description: z.string(), next: z.array(z.string()) }),
  input: z.strictObject({
    expression: z.string().describe('the schedule: @daily, "@every 1h 30m", "0 9 * * mon-fri", ...'),
    count: z.number().int().min(1).max(100).default(5).describe('how many fire times'),
    from: z.string().optional().describe('list fire times after this ISO 8601 instant (default now)'),
  }),
  async run({ expression, count, from }, call) {
    const preview = previewSchedule(expression, from === undefined ? new Date(call.clock.now()) : parseInstant(from), count);
    return { data: { ...preview }, summary: `${preview.description}\nNext: ${preview.next.join(', ') || 'none'}` };
  },
});

export const SCHEDULE_TOOLS = [schedulePreview];
