// The --watch flag alone, light enough for a noun's index.ts to import at start-up.
import type { OptionSpec } from '../../cli/define.js';
import { parseSecondsFlag } from '../../contract/validate.js';

export const WATCH_OPTION: OptionSpec = {
  flags: '--watch [sec]',
  description: 'refresh every SEC seconds (default 2) until Ctrl-C: redrawn in place on a terminal, one JSON document per refresh when piped',
};

/** undefined without --watch; the refresh interval in ms with it. */
export function parseWatch(value: string | boolean | string[] | undefined): number | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return 2000;
  return parseSecondsFlag(String(value), '--watch', 0.1) * 1000;
}
