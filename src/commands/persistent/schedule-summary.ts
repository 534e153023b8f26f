import { ScheduleCrash, ScheduleError, describeSchedule, nextFireTimes, parseSchedule } from '../../schedule/index.js';
import type { ScheduleSummary } from './columns.js';

/**
 * The description and next runs of an agent's schedule, computed locally (the service computes no
 * run times). A schedule this CLI cannot parse is reported, not fatal: the record still shows.
 */
export function summariseSchedule(expression: string | null | undefined, now = new Date(), count = 3): ScheduleSummary | undefined {
  if (!expression || expression.trim() === '') return undefined;
  try {
    const schedule = parseSchedule(expression);
    if (schedule.kind === 'interval') {
      // An interval counts from when the service started it, which the record does not say.
      return { description: describeSchedule(schedule), next: [], note: 'see `agentctl persistent status ID` (intervals count from when the service started them)' };
    }
    return {
      description: describeSchedule(schedule),
      next: nextFireTimes(schedule, now, count).map((date) => date.toISOString()),
    };
  } catch (error) {
    // A record's schedule is the service's text: one its own parser would refuse or crash on is reported.
    if (!(error instanceof ScheduleError || error instanceof ScheduleCrash)) throw error;
    return { next: [], problem: `agentctl cannot read this schedule: ${error.message}` };
  }
}
