import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScheduleExpression, scheduleCrash } from '../../src/core/persistent-fields.js';
import { previewSchedule } from '../../src/core/schedule-preview.js';
import { InputError } from '../../src/errors.js';
import { pyStrip } from '../../src/schedule/py.js';
import { useEmulator } from '../emulator/harness.js';

// Every row of data/schedules.json: what the service's own code (ScheduleParser.parse,
// api/agent/core/schedule_parser.py; Celery 5.5.3's crontab and crontab_parser; cron-descriptor
// 2.0.6 through describe_schedule, agents/services.py) answers for an expression, run from their
// sources (data/README.md says how). Each row goes through the emulator's preview and create
// routes and through agentctl's local checks: the verdict, the words of a refusal, the description
// and the fire times must be the service's.

interface Row {
  expression: string;
  status: 200 | 400 | 500;
  disabled?: true;
  error?: string;
  exception?: string;
  description?: string;
  next?: string[];
}
const table = JSON.parse(readFileSync(join(import.meta.dirname, 'data', 'schedules.json'), 'utf8')) as { start: string; fires: number; rows: Row[] };
// DRF's CharField strips what it saves with Python's str.strip (its whitespace, not JavaScript's).
const strip = pyStrip;

const h = useEmulator();

/** The rows in small groups: a few requests at once reuse their connections (many at once open new ones). */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

describe('the schedule table (test/conformance/data/schedules.json)', () => {
  it('has rows of every kind: accepted, refused, crashing, names, wrap-arounds', () => {
    const statuses = new Set(table.rows.map((row) => row.status));
    expect([...statuses].sort()).toEqual([200, 400, 500]);
    expect(table.rows.length).toBeGreaterThan(300);
  });

  it('agentctl\'s local preview gives each row\'s verdict, refusal, description and fire times', () => {
    const start = new Date(table.start);
    for (const row of table.rows) {
      const label = JSON.stringify(row.expression);
      if (row.disabled) {
        expect(() => previewSchedule(row.expression, start, table.fires), label).toThrow(InputError);
        continue;
      }
      if (row.status === 400) {
        let cause: unknown;
        try {
          previewSchedule(row.expression, start, table.fires);
        } catch (error) {
          cause = (error as Error).cause;
        }
        expect((cause as Error | undefined)?.message, label).toBe(row.error);
        continue;
      }
      const preview = previewSchedule(row.expression, start, table.fires);
      if (row.status === 500) {
        expect(preview, label).toMatchObject({ valid: false, next: [] });
        expect(preview.warning, label).toContain(row.exception);
        continue;
      }
      expect({ description: preview.description, next: preview.next }, label).toEqual({ description: row.description, next: row.next });
    }
  });

  it('agentctl\'s --schedule check refuses what the service refuses, in its words, and passes the rest (warning where it crashes)', () => {
    for (const row of table.rows) {
      const label = JSON.stringify(row.expression);
      if (row.status === 400) {
        expect(() => checkScheduleExpression(row.expression), label).toThrow(InputError);
        try {
          checkScheduleExpression(row.expression);
        } catch (error) {
          expect(((error as Error).cause as Error).message, label).toBe(row.error);
        }
        continue;
      }
      expect(checkScheduleExpression(row.expression), label).toBe(row.disabled ? null : row.expression);
      expect(scheduleCrash(row.expression) !== null, label).toBe(row.status === 500);
    }
  });

  it('the emulator\'s preview route answers each row as the service does', async () => {
    const agent = await h.api<{ id: string }>('POST', '/agents/', { name: 'schedule table' });
    for (const group of chunks(table.rows, 4)) {
      const answers = await Promise.all(group.map((row) => h.raw('POST', `/agents/${agent.id}/schedule/preview/`, { schedule: row.expression })));
      group.forEach((row, index) => {
        const answer = answers[index]!;
        const label = JSON.stringify(row.expression);
        expect(answer.status, label).toBe(row.status);
        if (row.status === 400) expect(answer.body, label).toEqual({ schedule: [row.error] });
        else if (row.disabled) expect(answer.body, label).toEqual({ valid: true, disabled: true, description: null });
        else if (row.status === 200) expect(answer.body, label).toEqual({ valid: true, disabled: false, description: row.description });
      });
    }
  });

  it('the emulator\'s create route saves, refuses or fails each row as the service does', async () => {
    let counter = 0;
    for (const group of chunks(table.rows, 4)) {
      const answers = await Promise.all(group.map((row) => h.raw('POST', '/agents/', { name: `table ${++counter}`, schedule: row.expression })));
      group.forEach((row, index) => {
        const answer = answers[index]!;
        const label = JSON.stringify(row.expression);
        expect(answer.status, label).toBe(row.status === 200 ? 201 : row.status);
        if (row.status === 400) expect(answer.body, label).toEqual({ schedule: [row.error] });
        // Saved as DRF's CharField reads it (stripped): a blank one stays "" (allow_blank), not null.
        if (row.status === 200) expect((answer.body as { schedule: unknown }).schedule, label).toBe(strip(row.expression));
      });
    }
  });
});
