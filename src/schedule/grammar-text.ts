/** The schedule grammar as the service accepts it, in words (help pages, the MCP grammar resource). */
export const SCHEDULE_GRAMMAR =
  'Grammar (as the service accepts it):\n' +
  '  @yearly @annually @monthly @weekly @daily @hourly   (case-sensitive; no @midnight, no @reboot)\n' +
  '  @every 90s | @every 1h 30m                          (units s m h d, parts separated by spaces)\n' +
  '  minute hour day-of-month month day-of-week          (UTC; day-of-week 0-6 or sun..sat;\n' +
  '                                                       no 7, month names, L, # or ?)\n' +
  'When both day-of-month and day-of-week are restricted, a day must match both (unlike classic cron).\n';
