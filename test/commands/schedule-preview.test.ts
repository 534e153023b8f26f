import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { apiRequest } from '../helpers/api.js';
import { agentctl, against } from '../helpers/cli.js';

let emulator: RunningEmulator;
let cli: ReturnType<typeof against>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, taskDurationMs: 200 });
  cli = against(emulator.baseUrl);
});
afterAll(() => emulator.close());

const FROM = ['--from', '2026-01-30T10:00:00Z'];

describe('schedule-preview (local, no request)', () => {
  it('prints the contract JSON: expression, valid, description and the next fire times in UTC', async () => {
    // Nothing listens at this address: a request would fail, so success proves the check is local.
    const result = await agentctl(['schedule-preview', '0 0 31 * *', '--count', '3', ...FROM, '--json'], {
      env: { AGENTCTL_BASE_URL: 'http://127.0.0.1:9/api/v1' },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ expression: '0 0 31 * *', valid: true });
    expect(typeof answer.description).toBe('string');
    // Months without a 31st are skipped.
    expect(answer.next).toEqual(['2026-01-31T00:00:00.000Z', '2026-03-31T00:00:00.000Z', '2026-05-31T00:00:00.000Z']);
  });

  it('lists times for @every with seconds, and five by default', async () => {
    const result = await cli(['schedule-preview', '@every 90s', ...FROM, '--json']);
    expect(JSON.parse(result.stdout).next).toEqual([
      '2026-01-30T10:01:30.000Z',
      '2026-01-30T10:03:00.000Z',
      '2026-01-30T10:04:30.000Z',
      '2026-01-30T10:06:00.000Z',
      '2026-01-30T10:07:30.000Z',
    ]);
  });

  it('shows a readable view on a terminal-less pipe as label<TAB>value lines, one line per fire time', async () => {
    const result = await cli(['schedule-preview', '@daily', '--count', '2', ...FROM]);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(lines[0]).toEqual(['expression', '@daily']);
    expect(lines[1]?.[0]).toBe('description');
    expect(lines.slice(2)).toEqual([
      ['next', '2026-01-31T00:00:00.000Z'],
      ['next', '2026-02-01T00:00:00.000Z'],
    ]);
  });

  it('shows the times in another zone with --tz, while the schedule stays in UTC', async () => {
    const result = await cli(['schedule-preview', '0 12 * * *', '--count', '1', '--from', '2026-07-01T00:00:00Z', '--tz', 'Europe/Oslo']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('2026-07-01 14:00:00 +02:00');
    const json = JSON.parse((await cli(['schedule-preview', '0 12 * * *', '--count', '1', '--from', '2026-07-01T00:00:00Z', '--tz', 'Europe/Oslo', '--json'])).stdout);
    expect(json.next).toEqual(['2026-07-01T12:00:00.000Z']);
  });

  it('lists what fits before the last representable date for a huge interval', async () => {
    const result = await cli(['schedule-preview', '@every 100000000d', ...FROM, '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).next).toEqual([]);
  });

  it('says when a valid expression never fires', async () => {
    const result = await cli(['schedule-preview', '0 0 31 2 *', ...FROM, '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: true, next: [] });
    const human = await cli(['schedule-preview', '0 0 31 2 *', ...FROM]);
    expect(human.stdout).toContain('never');
  });

  it.each([
    // The service's own words (ScheduleParser.parse, Celery's crontab_parser).
    ['@midnight', 'Expected 5 parts'],
    ['@reboot', 'Unsupported schedule format: @reboot'],
    ['@every 1h30m', 'Invalid interval part: 1h30m'],
    ['0 0 * * 7', 'Invalid end range: 7 > 6.'],
    ['0 0 * 13 *', 'Invalid end range: 13 > 12.'],
    ['0 0 L * *', "Invalid weekday literal 'L'."],
    ['* * * *', 'Expected 5 parts'],
  ])('refuses %s with exit 2, the reason on stderr and nothing on stdout', async (expression, reason) => {
    const result = await cli(['schedule-preview', expression, '--json']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    // Under --json the error is one JSON object on stderr.
    const { error } = JSON.parse(result.stderr);
    expect(error.exit).toBe(2);
    expect(`${error.message}\n${error.hint ?? ''}`).toContain(`the expression "${expression}" is not a schedule`);
    expect(`${error.message}\n${error.hint ?? ''}`).toContain(reason);
  });

  it('refuses bad options with exit 2', async () => {
    expect((await cli(['schedule-preview', '@daily', '--tz', 'Nowhere/City'])).exitCode).toBe(2);
    expect((await cli(['schedule-preview', '@daily', '--from', 'tomorrow'])).exitCode).toBe(2);
    expect((await cli(['schedule-preview', '@daily', '--count', '0'])).exitCode).toBe(2);
    expect((await cli(['schedule-preview', '@daily', '--agent', 'not-a-uuid'])).exitCode).toBe(2);
  });
});

describe('schedule-preview --agent (asks the service too)', () => {
  it('shows the service answer beside the local one', async () => {
    const agent = await apiRequest<{ id: string }>(emulator.baseUrl, 'POST', '/agents/', { name: 'preview-agent', charter: 'x' });
    const result = await cli(['schedule-preview', '@every 1h 30m', '--agent', agent.id, '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ expression: '@every 1h 30m', valid: true });
    expect(answer.next).toHaveLength(5);
    expect(answer.service).toMatchObject({ valid: true, disabled: false });
    expect(typeof answer.service.description).toBe('string');

    const human = await cli(['schedule-preview', '@hourly', '--agent', agent.id]);
    expect(human.stdout).toMatch(/^service\tvalid/m);
  });

  it('exits 4 for an agent that does not exist, after the local check passed', async () => {
    const result = await cli(['schedule-preview', '@daily', '--agent', '7c9e6679-7425-40de-944b-e07fc1f90ae7']);
    expect(result.exitCode).toBe(4);
  });

  it('never asks the service about an expression that fails locally', async () => {
    const result = await agentctl(['schedule-preview', '@midnight', '--agent', '7c9e6679-7425-40de-944b-e07fc1f90ae7'], {
      env: { AGENTCTL_BASE_URL: 'http://127.0.0.1:9/api/v1' },
    });
    expect(result.exitCode).toBe(2);
  });
});

describe('schedule-preview --agent when the service disagrees', () => {
  it('shows the 400 beside the local answer, sends the agent name, and exits 1', async () => {
    const { stubServer, sendJson } = await import('../helpers/stub-server.js');
    const agentId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const stub = await stubServer((request, response) => {
      if (request.method === 'GET') return sendJson(response, 200, { id: agentId, name: 'fare-watcher', is_active: true, schedule: null });
      sendJson(response, 400, { schedule: ['Unsupported on this deployment.'] });
    });
    try {
      const result = await against(stub.baseUrl)(['schedule-preview', '@hourly', '--agent', agentId, '--json']);
      expect(result.exitCode).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ expression: '@hourly', valid: true, service: { valid: false, errors: { schedule: ['Unsupported on this deployment.'] } } });
      expect(result.stderr).toContain('schedule: Unsupported on this deployment.');
      const post = stub.requests.find((request) => request.method === 'POST');
      expect(JSON.parse(post!.body)).toEqual({ name: 'fare-watcher', schedule: '@hourly' });
    } finally {
      await stub.close();
    }
  });
});

describe('schedule-preview --tz', () => {
  it('says that only the display changes: the schedule runs in UTC', async () => {
    const result = await agentctl(['schedule-preview', '30 6 * * *', '--tz', 'Europe/Oslo', '--from', '2026-01-01T00:00:00Z']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('Times are shown in Europe/Oslo; the schedule itself runs in UTC, as the service evaluates it.');
  });
});
