import { describe, expect, it } from 'vitest';
import { against } from '../helpers/cli.js';
import { useEmulator } from '../emulator/harness.js';

// The service's schedule rules, read from its code (gobii-platform c9929bf with Celery 5.5.3 and
// cron-descriptor 2.0.6), each checked against the emulator and agentctl's own check before sending.
// Each `describe` names the file and function that decides it; schedule-table.test.ts checks the
// same rules row by row against the answers of that code itself.

const h = useEmulator();
const cli = (args: string[]) => against(h.emulator.baseUrl)(args);
let counter = 0;
const newAgent = (body: Record<string, unknown> = {}) => h.api<{ id: string }>('POST', '/agents/', { name: `schedule rules ${++counter}`, ...body });
const FROM = ['--from', '2026-01-01T00:00:00Z'];

async function preview(schedule: string) {
  const agent = await newAgent();
  return h.raw('POST', `/agents/${agent.id}/schedule/preview/`, { schedule });
}

async function localNext(expression: string, count = 3): Promise<string[]> {
  const result = await cli(['schedule-preview', expression, '--count', String(count), ...FROM, '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { next: string[] }).next;
}

describe('names (celery/schedules.py crontab_parser._expand_number; celery/utils/time.py yearmonth, weekday)', () => {
  it('takes a month or day name, first three letters, any case, in any field; a month name first', async () => {
    expect((await preview('0 0 * jan *')).body).toEqual({ valid: true, disabled: false, description: 'At 00:00, every day, only in January' });
    expect((await preview('0 0 * * monday')).status).toBe(200);
    // `mon` as an hour is 1; `mar` as a day of the week is month 3, a Wednesday.
    expect(await localNext('0 mon * * *', 1)).toEqual(['2026-01-01T01:00:00.000Z']);
    expect(await localNext('0 0 * * mar', 1)).toEqual(['2026-01-07T00:00:00.000Z']);
    // A month past the field's end is out of range there, in Celery's words.
    expect((await preview('0 0 * * dec')).body).toEqual({ schedule: ['Invalid end range: 12 > 6.'] });
  });
});

describe('ranges and numbers (crontab_parser._expand_range, _range_steps; Python int())', () => {
  it('wraps a range past the field\'s end (fri-mon, 5-1) and reads numbers with int() (1_0 is 10)', async () => {
    expect(await localNext('0 0 * * fri-mon', 4)).toEqual(['2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z', '2026-01-04T00:00:00.000Z', '2026-01-05T00:00:00.000Z']);
    expect(await localNext('5-1 * * * *', 3)).toEqual(['2026-01-01T00:01:00.000Z', '2026-01-01T00:05:00.000Z', '2026-01-01T00:06:00.000Z']);
    expect(await localNext('1_0 * * * *', 1)).toEqual(['2026-01-01T00:10:00.000Z']);
    for (const schedule of ['0 0 * * fri-mon', '5-1 * * * *', '1_0 * * * *']) expect((await preview(schedule)).status, schedule).toBe(200);
  });
});

describe('refusals (api/agent/core/schedule_parser.py ScheduleParser.parse; api/views.py schedule_preview)', () => {
  const REFUSED: Record<string, string> = {
    '61 * * * *': 'Invalid end range: 61 > 59.',
    '* * * *': 'Invalid cron format. Expected 5 parts: (minute hour day_of_month month_of_year day_of_week)',
    '@every 1h30m': 'Invalid interval part: 1h30m',
    '@reboot': 'Unsupported schedule format: @reboot',
    '@midnight': 'Invalid cron format. Expected 5 parts: (minute hour day_of_month month_of_year day_of_week)',
    '0 0 L * *': "Invalid weekday literal 'L'.",
  };

  it('answers 400 {"schedule": [its own words]}', async () => {
    for (const [schedule, words] of Object.entries(REFUSED)) expect((await preview(schedule)).body, schedule).toEqual({ schedule: [words] });
  });

  it('agentctl refuses the same before sending, in the same words (schedule-preview, --schedule)', async () => {
    for (const [schedule, words] of Object.entries(REFUSED)) {
      const local = await cli(['schedule-preview', schedule]);
      expect(local.exitCode, schedule).toBe(2);
      expect(local.stderr, schedule).toContain(words);
      const create = await cli(['persistent', 'create', '--name', `refused ${++counter}`, '--schedule', schedule]);
      expect(create.exitCode, schedule).toBe(2);
      expect(create.stderr, schedule).toContain(words);
    }
  });
});

describe('crashes (crontab_parser.parse, _expand_number, _star_steps raise ParseException, which ScheduleParser\'s callers do not catch)', () => {
  const CRASHING = ['-5 * * * *', '1,,2 * * * *', '*/ * * * *', '0 0 * * ,', '1-5/ * * * *'];

  it('the service answers 500 to a negative number, an empty list item or an empty step, and saves nothing', async () => {
    for (const schedule of CRASHING) {
      expect((await preview(schedule)).status, schedule).toBe(500);
      const name = `crash ${++counter}`;
      expect((await h.raw('POST', '/agents/', { name, schedule })).status, schedule).toBe(500);
      const agent = await newAgent();
      expect((await h.raw('PATCH', `/agents/${agent.id}/`, { schedule })).status, schedule).toBe(500);
      expect((await h.api<{ schedule: unknown }>('GET', `/agents/${agent.id}/`)).schedule).toBeNull();
    }
  });

  it('agentctl warns, exits 0 for a preview, and sends it when creating (the answer is the service\'s 500)', async () => {
    for (const schedule of CRASHING) {
      // `--` ends the options: `-5 * * * *` is the expression, not a flag.
      const local = await cli(['schedule-preview', '--json', '--', schedule]);
      expect(local.exitCode, `${schedule}: ${local.stderr}`).toBe(0);
      expect(local.stderr, schedule).toMatch(/warning: the service answers this schedule with 500/);
      expect(JSON.parse(local.stdout), schedule).toMatchObject({ expression: schedule, valid: false, next: [] });
    }
    const create = await cli(['persistent', 'create', '--name', `sent ${++counter}`, '--schedule', '-5 * * * *']);
    expect(create.stderr).toMatch(/warning: .*500.*sending it anyway/);
    expect(create.exitCode).toBe(1);
    expect(create.stderr).toMatch(/500/);
  });
});

describe('descriptions (agents/services.py PretrainedWorkerTemplateService.describe_schedule: cron-descriptor, verbose)', () => {
  it('is cron-descriptor\'s verbose English; for @every, and where cron-descriptor gives up, the expression', async () => {
    const cases: Record<string, string> = {
      '@daily': 'At 00:00, every day',
      '*/15 * * * *': 'Every 15 minutes, every hour, every day',
      '0 9-17/2 * * 1-5': 'Every 2 hours, between 09:00 and 17:59, Monday through Friday',
      '@every 1h 30m': '@every 1h 30m',
      '0 0 * * monday': '0 0 * * monday',
    };
    for (const [schedule, description] of Object.entries(cases)) {
      expect(((await preview(schedule)).body as { description: string }).description, schedule).toBe(description);
      const local = await cli(['schedule-preview', schedule, '--json']);
      expect(JSON.parse(local.stdout).description, schedule).toBe(description);
    }
  });
});

describe('processing status nextScheduledAt (console/agent_chat/timeline.py compute_agent_schedule_next_run; api/services/agent_schedules.py create_default_onboarding_schedule)', () => {
  const status = async (id: string) =>
    (await h.api<{ processing_snapshot: { nextScheduledAt: string | null } }>('GET', `/agents/${id}/processing-status/`)).processing_snapshot.nextScheduledAt;
  const inHours = (hours: number) => new Date(Math.floor(h.clock.now() / 1000) * 1000 + hours * 3_600_000).toISOString().replace('.000Z', 'Z');

  it('is the first check-in, a day after creation, while nothing runs sooner; null for an agent created paused', async () => {
    const agent = await newAgent();
    expect(await status(agent.id)).toBe(inHours(24));
    const paused = await newAgent({ is_active: false });
    await h.api('POST', `/agents/${paused.id}/activate/`);
    expect(await status(paused.id)).toBeNull();
  });

  it('answers 500 for a crontab no date matches (Celery\'s _delta_to_next raises RuntimeError, which is not caught)', async () => {
    const agent = await newAgent({ schedule: '0 0 31 2 *' });
    expect((await h.raw('GET', `/agents/${agent.id}/processing-status/`)).status).toBe(500);
    await h.api('POST', `/agents/${agent.id}/deactivate/`);
    expect(await status(agent.id)).toBeNull();
  });

  it('for @every is now + the interval, each time it is asked (remaining_estimate(now))', async () => {
    const agent = await newAgent({ schedule: '@every 2h' });
    expect(await status(agent.id)).toBe(inHours(2));
    h.advance(30 * 60_000);
    expect(await status(agent.id)).toBe(inHours(2));
  });
});
