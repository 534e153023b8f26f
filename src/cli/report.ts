import type { Command } from 'commander';
import { EXIT_CODE_MEANINGS, ExitCode, isExplainedError, type ExitCodeValue } from '../errors.js';
import type { Redactor } from '../api/redact.js';
import { sanitizeText } from '../output/sanitize.js';
import { ghHabitHint, unknownCommandMessage } from './gh-habits.js';

export interface ReportOptions {
  /** --json/--jsonl: the error is one JSON object on stderr, so a job can log and branch on it. */
  json?: boolean;
}

/** What a failure says: the same fields in text and in JSON. */
export interface ErrorReport {
  exitCode: ExitCodeValue;
  message: string;
  hint?: string;
}

/**
 * Turns any error into a few readable lines on stderr (or one JSON object under --json) and the
 * exit code of the contract. Stack traces are for bugs only (and then with a request to report it).
 * Secrets are redacted and control characters escaped: messages may quote the service.
 */
export function reportError(
  error: unknown,
  redactor: Redactor | undefined,
  write: (text: string) => unknown,
  options: ReportOptions = {},
): ExitCodeValue {
  const report = explain(error);
  const clean = (text: string) => (redactor ? redactor.redact(text) : text);
  writeReport({ ...report, message: clean(report.message), hint: report.hint === undefined ? undefined : clean(report.hint) }, write, options);
  return report.exitCode;
}

export function writeReport(report: ErrorReport, write: (text: string) => unknown, options: ReportOptions = {}): void {
  if (options.json) {
    const meaning = EXIT_CODE_MEANINGS[report.exitCode];
    // A command that printed its outcome already (a failed task) ends without words of its own: JSON still says what the code means.
    const error = { code: meaning?.name ?? 'error', exit: report.exitCode, message: report.message || (meaning?.meaning ?? ''), hint: report.hint ?? null };
    write(`${JSON.stringify({ error })}\n`);
    return;
  }
  if (report.message) write(`error: ${sanitizeText(report.message)}\n`);
  if (report.hint) write(`hint: ${sanitizeText(report.hint)}\n`);
}

function explain(error: unknown): ErrorReport {
  if (isExplainedError(error)) {
    const notFound = explainNotFound(error);
    if (notFound) return notFound;
    return { exitCode: error.exitCode, message: error.message, hint: error.hint };
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { exitCode: ExitCode.serviceError, message: `unexpected failure (this is a bug in agentctl; please report it):\n${message}` };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A 404 names what was not found ("no task 3f2b…"). (A 404 from a base URL without /api/v1 is a
 * MissingApiVersionError, raised by the client, which knows the base URL.)
 */
function explainNotFound(error: Error & { exitCode: ExitCodeValue; hint?: string }): ErrorReport | undefined {
  const { status, url } = error as Partial<{ status: number; url: string }>;
  if (status !== 404 || typeof url !== 'string') return undefined;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const segments = path.split('/').filter(Boolean);
  const last = segments.map((segment, i) => [segment, i] as const).reverse().find(([segment]) => UUID.test(segment));
  if (!last) return undefined;
  const [id, i] = last;
  const before = segments[i - 1];
  const family = segments[i - 2];
  let thing: string;
  let list: string;
  if (before === 'tasks' || (before === 'browser-use' && family === 'tasks')) [thing, list] = ['task', 'agentctl tasks list'];
  else if (before === 'browser-use' && family === 'agents') [thing, list] = ['browser-use agent', 'agentctl agents list'];
  else if (before === 'agents') [thing, list] = ['persistent agent', 'agentctl persistent list'];
  else return undefined;
  const agent = before === 'tasks' && family && UUID.test(family) ? ` under agent ${family}` : '';
  return { exitCode: ExitCode.notFound, message: `no ${thing} ${id}${agent} (the service answered 404)`, hint: `check the id; \`${list}\` shows what there is` };
}

/** A usage error found by commander, with the command's usage line and where its help is. */
export function commanderErrorReport(text: string, command: Command): ErrorReport {
  const path: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) path.unshift(c.name());
  const message = text.trim().replace(/^error: /, '');
  // gh, npm and others print their version for -v; agentctl keeps it free (it is not --verbose either).
  if (message === "unknown option '-v'") {
    return { exitCode: ExitCode.usage, message, hint: 'for the version: agentctl --version (or -V, or agentctl version); for an HTTP trace: --verbose' };
  }
  const usage = `${path.join(' ')} ${command.usage()}`;
  const habit = ghHabitHint(message, command);
  if (habit) return { exitCode: ExitCode.usage, message, hint: `${habit}\n      usage: ${usage}` };
  const choice = outOfChoices(message);
  if (choice) return { exitCode: ExitCode.usage, message: choice, hint: `usage: ${usage}` };
  const help = path.length > 1 ? `agentctl help ${path.slice(1).join(' ')}` : 'agentctl help';
  return { exitCode: ExitCode.usage, message: unknownCommandMessage(message, command) ?? message, hint: `usage: ${usage}\n      more: ${help} (or --help)` };
}

/** Commander's wording for a value outside its choices, in agentctl's (or undefined for other errors). */
function outOfChoices(message: string): string | undefined {
  const argument = /^command-argument value '(.*)' is invalid for argument '(.*)'\. Allowed choices are (.*)\.$/s.exec(message);
  if (argument) return `unknown ${argument[2]} "${argument[1]}": choose one of ${argument[3]}`;
  const option = /^option '(\S+)[^']*' argument '(.*)' is invalid\. Allowed choices are (.*)\.$/s.exec(message);
  if (option) return `${option[1]} "${option[2]}" is not one of ${option[3]}`;
  return undefined;
}
