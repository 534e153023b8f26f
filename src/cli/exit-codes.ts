import { EXIT_CODE_MEANINGS, type ExitCodeValue } from '../errors.js';

/**
 * What a command can end in, each code in the command's own words ('' for the usual meaning of
 * EXIT_CODE_MEANINGS). It is the command's one list: its help's "Exit codes:" table, the command
 * reference and the man page print it, and a test holds every code its help names to it.
 */
export type ExitCodes = Partial<Record<ExitCodeValue, string>>;

/** A command that talks to the service (the default for a command that declares nothing). */
export const SERVICE_EXITS: ExitCodes = { 0: '', 1: '', 2: '', 3: '', 4: '', 8: '', 130: '' };

/** A command that waits for tasks to end. */
export const WAIT_EXITS: ExitCodes = { ...SERVICE_EXITS, 5: '', 6: '', 7: '' };

/** A command that only works on this machine. */
export const LOCAL_EXITS: ExitCodes = { 0: '', 2: '' };

export interface ExitCodeLine {
  code: ExitCodeValue;
  meaning: string;
}

/** The lines of a list, by code, each with its meaning (the command's, or the usual one). */
export function exitCodeLines(codes: ExitCodes): ExitCodeLine[] {
  return (Object.keys(codes).map(Number) as ExitCodeValue[])
    .sort((a, b) => a - b)
    .map((code) => ({ code, meaning: codes[code] || EXIT_CODE_MEANINGS[code].meaning }));
}
