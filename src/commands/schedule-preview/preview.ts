import { ApiError } from '../../api/errors.js';
import { persistentAgents } from '../../api/persistent-agents.js';
import type { SchedulePreview } from '../../api/schemas/persistent-agent.js';
import { parseIntegerFlag } from '../../contract/validate.js';
import { withFlags, type FlagTable, type HintTable } from '../../cli/fields.js';
import type { Context } from '../../cli/context.js';
import { ExitError } from '../../errors.js';
import { previewRequest, previewSchedule, serviceScheduleBody, type LocalPreview as CorePreview, type PreviewRequest } from '../../core/schedule-preview.js';
import { ExitCode } from '../../errors.js';
import { defineCommand } from '../../cli/define.js';
import { SERVICE_EXITS } from '../../cli/exit-codes.js';
import type { DetailRow } from '../../output/output.js';
import { SCHEDULE_GRAMMAR } from '../../schedule/grammar-text.js';
import { LAST_SEARCHED_YEAR, formatInZone, parseSchedule } from '../../schedule/index.js';
import { neverFires } from '../../schedule/grammar.js';

export type PreviewOptions = PreviewRequest;

/** The local answer, in the contract's JSON shape, with the service's when asked. */
export interface LocalPreview extends CorePreview {
  service?: SchedulePreview;
}

/** The flag of each field of the core's preview request. */
const PREVIEW_FLAGS: FlagTable = { expression: 'the expression', count: '--count', from: '--from', timezone: '--tz', agent_id: '--agent' };

const HINTS: HintTable = {
  expression: (error) => (error.problem.startsWith('is empty') ? "to clear an agent's schedule use `persistent update ID --no-schedule`" : ''),
  from: () => 'for example 2026-03-01T09:00:00Z',
  agent_id: () => 'ids look like 3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f',
};

/** The flags as the core's preview request (src/core/schedule-preview.ts), which checks them. */
export function parsePreviewOptions(expression: string, options: Record<string, unknown>, now = new Date()): PreviewOptions {
  const count = options.count === undefined ? undefined : parseIntegerFlag(String(options.count), '--count', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const request = { expression, count, from: options.from, timezone: options.tz, agent_id: options.agent };
  return withFlags(PREVIEW_FLAGS, () => previewRequest(request, now), HINTS);
}

/** Validates and evaluates the expression locally; an invalid one is a usage error (exit 2). */
export function localPreview(options: PreviewOptions): LocalPreview {
  return withFlags(PREVIEW_FLAGS, () => previewSchedule(options.expression, options.from, options.count), HINTS);
}

export const command = defineCommand({
  name: 'schedule-preview',
  summary: 'check a schedule expression locally, describe it and list its next fire times (UTC)',
  args: [{ name: '<expr>', description: 'the schedule: @daily, "@every 1h 30m", "0 9 * * mon-fri", ...' }],
  options: [
    { flags: '--count <n>', description: 'how many fire times, 1..1000', default: '5' },
    { flags: '--from <iso>', description: 'list fire times after this instant (ISO 8601, default now)' },
    { flags: '--tz <zone>', description: 'show times in this IANA time zone (the schedule itself runs in UTC)' },
    { flags: '--agent <id>', description: 'also ask the service for its answer (POST /agents/ID/schedule/preview/)' },
  ],
  notes:
    SCHEDULE_GRAMMAR +
    'An invalid expression exits 2 with the reason; nothing is sent without --agent.',
  exitCodes: {
    ...SERVICE_EXITS,
    1: '--agent: the service rejects the schedule (shown beside the local answer), or another service error',
    2: 'an invalid expression, with the reason (nothing is sent)',
  },
  examples: [
    'agentctl schedule-preview "0 9 * * mon-fri"',
    'agentctl schedule-preview "@every 1h 30m" --count 3 --from 2026-01-01T00:00:00Z',
    'agentctl schedule-preview "30 6 * * *" --tz Europe/Oslo',
    'agentctl schedule-preview @daily --agent 7c9e6679-7425-40de-944b-e07fc1f90ae7 --json | jq .service',
  ],
  parse: (input) => ({
    expression: input.arg(0) ?? '',
    raw: { count: input.string('count'), from: input.string('from'), tz: input.string('tz'), agent: input.string('agent') },
  }),
  async run({ expression, raw }, ctx) {
    const preview = parsePreviewOptions(expression, raw, new Date(ctx.clock.now()));
    const answer = localPreview(preview);
    const rejection = preview.agentId ? await askService(ctx, preview.agentId, answer) : undefined;
    printPreview(ctx, preview, answer);
    if (rejection) throw new ExitError(ExitCode.serviceError, `the service rejects this schedule (HTTP 400): ${rejection.join('; ')}`);
  },
});

/**
 * Adds the service's own answer. The spec names the agent's fields as the body, so the agent's name
 * goes with the schedule. A 400 is an answer too (the service disagrees with the local grammar): it
 * is shown beside the local one, and its lines are returned so the command can end with exit 1.
 */
async function askService(ctx: Context, agentId: string, answer: LocalPreview): Promise<string[] | undefined> {
  const client = await ctx.client();
  const agent = await persistentAgents.get(client, agentId);
  try {
    answer.service = await persistentAgents.previewSchedule(client, agentId, serviceScheduleBody(agent.name, answer.expression));
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    answer.service = { valid: false, errors: error.body };
    return error.lines;
  }
}

function printPreview(ctx: Context, preview: PreviewOptions, answer: LocalPreview): void {
  // Not a refusal: the service, not agentctl, answers such an expression (with a 500), so exit 0.
  if (answer.warning) ctx.out.warn(answer.warning);
  if (ctx.out.machine) return ctx.out.json(answer);

  // Seconds matter (`@every 90s`), so terminal times are spelled out rather than shortened like table cells.
  const plain = ctx.out.settings.format === 'plain';
  const show = (iso: string) =>
    preview.timeZone ? formatInZone(new Date(iso), preview.timeZone) : plain ? iso : iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
  const rows: DetailRow[] = [
    { label: 'expression', value: answer.expression },
    { label: 'description', value: answer.description },
  ];
  if (answer.next.length === 0) rows.push({ label: 'next', value: noFireTimes(answer) });
  answer.next.forEach((iso, index) => rows.push({ label: index === 0 || plain ? 'next' : '', value: show(iso) }));
  if (answer.service) {
    rows.push({ label: 'service', value: serviceSummary(answer.service) });
  }
  ctx.out.record(answer, rows);
  if (preview.timeZone) ctx.out.info(ctx.out.chalk.dim(`Times are shown in ${preview.timeZone}; the schedule itself runs in UTC, as the service evaluates it.`));
  else if (ctx.out.settings.format === 'table') ctx.out.info(ctx.out.chalk.dim('Times are UTC; --tz ZONE shows them in another zone.'));
}

function noFireTimes(answer: LocalPreview): string {
  if (!answer.valid) return 'none (the service cannot read this schedule)';
  const schedule = parseSchedule(answer.expression);
  if (schedule.kind === 'cron' && neverFires(schedule.sets)) return 'never (no date matches)';
  return `none found (agentctl looks no further than the year ${LAST_SEARCHED_YEAR})`;
}

function serviceSummary(service: SchedulePreview): string {
  if (service.valid === false) return 'invalid';
  if (service.disabled) return 'valid, disabled';
  const parts = [service.valid === true ? 'valid' : undefined, service.description ?? undefined].filter(Boolean);
  return parts.length ? parts.join(': ') : JSON.stringify(service);
}
