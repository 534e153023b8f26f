/** The schedule grammar as the service accepts it, in words (help pages, the MCP grammar resource). */
export const SCHEDULE_GRAMMAR =
  'Grammar (as the service accepts it, read from its code):\n' +
  '  @yearly @annually @monthly @weekly @daily @hourly   (case-sensitive; no @midnight, no @reboot)\n' +
  '  @every 90s | @every 1h 30m                          (units s m h d, parts separated by spaces)\n' +
  '  minute hour day-of-month month day-of-week          (UTC; day-of-week 0-6, 0 is Sunday; no 7, L, # or ?)\n' +
  'As Celery reads cron: a month or day name (its first three letters, any case; months first) is a\n' +
  'number in any field (`jan` is 1, `mon` is 1, `fri` is 5), a range may wrap (`fri-mon`, `50-10`), and\n' +
  'when both day-of-month and day-of-week are restricted a day must match both (unlike classic cron).\n' +
  'A negative number, an empty list item or an empty step (`-5`, `1,,2`, `*/`) makes the service\n' +
  'answer 500: agentctl warns and sends it.\n';
