// The service's schedule grammar (docs/service-behaviour.md): parse, describe, and compute fire times.
// Public interface shared by the CLI (schedule-preview, persistent) and the emulator.
// grammar.ts, describe.ts, py.ts and zone.ts have no dependencies; only next.ts loads croner, so a
// command that just validates can import './schedule/grammar.js' and keep croner off its path.
export { MAX_SCHEDULE_LENGTH, ScheduleCrash, ScheduleError, type Schedule } from './types.js';
export { checkSchedule, parseSchedule } from './grammar.js';
export { describeExpression, describeSchedule } from './describe.js';
export { LAST_SEARCHED_YEAR, nextFireTimes } from './next.js';
export { checkTimeZone, formatInZone } from './zone.js';
