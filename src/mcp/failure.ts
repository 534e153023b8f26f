// A failed tool call in MCP's terms: the error kind (agentctl's exit codes, plus names of its own
// for what a model handles differently: out of credits, a conflict, a refused output schema), the
// tool argument at fault and the tool to call next. Never a flag or a command line: those are the
// command line's words, and a model cannot type them.
import { ApiError, NetworkError, RedirectError, ResponseShapeError } from '../api/errors.js';
import { ServiceToolError } from '../api/service-mcp.js';
import type { Redactor } from '../api/redact.js';
import { EXIT_CODE_MEANINGS, ExitCode, InputError, isExplainedError, type ExitCodeValue } from '../errors.js';
import { fence } from './fence.js';
import { TOOL_NAMES_AS_WRITTEN, type ToolNames } from './names.js';
import type { Tool } from './tool.js';
import { ServiceIdError } from './voice.js';

/** A failure in the terms of agentctl's exit codes, as a tool error carries it. */
export interface FailureDetails {
  /** The error's name: usage, auth, not_found, network, service_error, out_of_credits, ... */
  name: string;
  /** The exit code the same failure gives on the command line. */
  exit_code: number;
  meaning: string;
  message: string;
  hint?: string;
  /** The tool argument at fault. */
  field?: string;
  /** The tool that helps next (lists what exists, checks a schedule, waits on). */
  next_tool?: string;
  /** The HTTP status the service answered. */
  status?: number;
  /** Rate limited or unavailable: the service asked to wait this long. */
  retry_after_seconds?: number;
  /** When to try again (ISO 8601), with retry_after_seconds. */
  retry_at?: string;
}

/** The error names that are no exit code's own name (each gives exit code 1 on the command line). */
export const OWN_ERROR_NAMES = [
  { name: 'rate_limited', exit_code: ExitCode.serviceError, meaning: 'the service is rate limiting (HTTP 429): wait retry_after_seconds, then try again' },
  { name: 'out_of_credits', exit_code: ExitCode.serviceError, meaning: 'the account has too few task credits (HTTP 402): retrying will not help; tell the user' },
  { name: 'conflict', exit_code: ExitCode.serviceError, meaning: "the record's state does not allow this (HTTP 409), e.g. messaging a paused agent" },
  { name: 'output_schema_refused', exit_code: ExitCode.serviceError, meaning: 'the service refused the output_schema (HTTP 400): fix the JSON Schema and call again' },
  { name: 'too_large', exit_code: ExitCode.serviceError, meaning: 'the answer is larger than a call returns, even cut short: ask for less at once (the hint says how)' },
];

/** The tool that shows what exists, by toolset (after a create whose outcome is unknown). */
const LIST_TOOLS: Record<string, string | undefined> = { tasks: 'tasks_list', agents: 'agents_list', persistent: 'persistent_list', links: 'persistent_links', files: 'persistent_files' };
/** Where a write that is no create shows whether it was carried out. */
const CHECK_TOOLS: Record<string, string | undefined> = { persistent_message: 'persistent_timeline' };

/**
 * What a tool knows about its own failure (the argument at fault, how to recover), said over the
 * general words. next_tool is a tool's own name, and a hint that names tools a function of the
 * server's names: both then say what this server offers (names.ts).
 */
export interface Advice {
  hint?: string | ((names: ToolNames) => string);
  field?: string;
  next_tool?: string;
}
const ADVICE = Symbol('advice');

/** Returns `error` carrying the tool's advice, which its failure then shows. */
export function advise<E>(error: E, advice: Advice): E {
  if (typeof error === 'object' && error !== null) Object.assign(error, { [ADVICE]: advice });
  return error;
}

/** Our own hints for what the command line would answer with a command to type. */
const AUTH_HINT = "the server's API key was refused; only the person who runs the server can fix it (its key is never shown here)";
const GRAMMAR = 'resource agentctl://schedule/grammar';

/**
 * Any error as a message and its details, for the tool `tool` (none: a resource read), naming only
 * the tools the server offers (`names`). Known errors keep their message; anything else is a bug,
 * shown as one line (never a stack). Secrets and the API key are redacted from both.
 */
export function describeFailure(error: unknown, redactor: Redactor, tool?: Tool, names: ToolNames = TOOL_NAMES_AS_WRITTEN): { message: string; error: FailureDetails } {
  const known = isExplainedError(error);
  const code: ExitCodeValue = known ? error.exitCode : ExitCode.serviceError;
  const { name, meaning } = EXIT_CODE_MEANINGS[code] ?? EXIT_CODE_MEANINGS[ExitCode.serviceError];
  const raw = error instanceof Error ? error.message : String(error);
  const details: FailureDetails = {
    name,
    exit_code: code,
    meaning,
    message: redactor.redact(known ? raw : `internal error in agentctl: ${raw.split('\n')[0]}`),
  };
  // The command line's hints name flags and commands; a model gets ours, or none.
  if (known && error.hint && !/--[a-z]|`agentctl /.test(error.hint)) details.hint = redactor.redact(error.hint);
  if (error instanceof InputError) {
    details.field = error.field;
    if (error.field === 'schedule' || error.field === 'expression') {
      const preview = names.offered('schedule_preview');
      details.hint = preview ? `check the expression with ${preview} (grammar: ${GRAMMAR})` : `check the expression against the grammar: ${GRAMMAR}`;
      if (tool?.name !== 'schedule_preview') setNext(details, names, 'schedule_preview');
    }
  }
  if (error instanceof ApiError) describeServiceError(error, details, tool, names);
  if (details.name === 'auth') details.hint = AUTH_HINT;
  if (details.name === 'network' && tool?.name === 'tasks_wait') setNext(details, names, 'tasks_wait');
  // A create whose answer was lost, or that the service failed on (5xx) after reading it, may exist: look before calling again.
  const serverFailed = error instanceof ApiError && error.status >= 500 && tool?.kind === 'write';
  if (((error instanceof NetworkError && error.mayHaveBeenCarriedOut) || serverFailed) && tool) {
    const list = setNext(details, names, CHECK_TOOLS[tool.name] ?? LIST_TOOLS[tool.toolset]);
    const what = tool.name === 'tasks_create' ? 'the task may have been created' : 'it may exist now';
    details.hint = `the request may still have been carried out (${what}): check ${list ? `with ${list}` : 'that it was not'} before calling ${names.offered(tool.name) ?? tool.name} again`;
  }
  const advice = (error as { [ADVICE]?: Advice } | undefined)?.[ADVICE];
  if (advice) {
    if (advice.field !== undefined) details.field = advice.field;
    if (advice.hint !== undefined) details.hint = typeof advice.hint === 'string' ? advice.hint : advice.hint(names);
    if (advice.next_tool !== undefined) {
      // The tool's own advice replaces the general one, also when its tool is not offered here.
      delete details.next_tool;
      setNext(details, names, advice.next_tool);
    }
  }
  const lines = [explain(error, `${details.name} (exit code ${code}: ${details.meaning})`, details.message, redactor)];
  if (details.hint) lines.push(`hint: ${details.hint}`);
  if (details.next_tool) lines.push(`next: call ${details.next_tool}`);
  return { message: lines.join('\n'), error: details };
}

/**
 * The message after its head. The service's words are fenced as its data: an error body (it may
 * quote what it was sent, or a page), a body that is not what the API promises, where a redirect
 * pointed. Our own words stay outside.
 */
function explain(error: unknown, head: string, message: string, redactor: Redactor): string {
  if (error instanceof RedirectError) {
    const where = error.location === undefined ? 'it gave no Location header' : 'where it pointed:';
    const said = `${head}: the service answered ${error.status}, a redirect, which agentctl does not follow (the API key goes only to the base URL); ${where}`;
    // A service may echo the key it was sent into where it points: redacted as every message is.
    return error.location === undefined ? said : `${said}\n${fence(redactor.redact(error.location))}`;
  }
  // A tool error of the service's own MCP endpoint quotes its message (an agent's name, a path it refused).
  const quotesService = error instanceof ApiError || error instanceof ServiceToolError || (error instanceof ResponseShapeError && !(error instanceof ServiceIdError));
  return quotesService ? `${head}:\n${fence(message)}` : `${head}: ${message}`;
}

/** Names `base` as the tool to call next when the server offers it; answers the name it is offered by. */
function setNext(details: FailureDetails, names: ToolNames, base: string | undefined): string | undefined {
  const name = base === undefined ? undefined : names.offered(base);
  if (name) details.next_tool = name;
  return name;
}

function describeServiceError(error: ApiError, details: FailureDetails, tool: Tool | undefined, names: ToolNames): void {
  details.status = error.status;
  const own = (name: string) => {
    const found = OWN_ERROR_NAMES.find((entry) => entry.name === name)!;
    details.name = found.name;
    details.meaning = found.meaning;
  };
  if (error.status === 429) own('rate_limited');
  if (error.status === 402) own('out_of_credits');
  if (error.status === 409) {
    own('conflict');
    if (tool?.name === 'persistent_message') setNext(details, names, 'persistent_activate');
  }
  const body = error.body;
  if (error.status === 400 && typeof body === 'object' && body !== null && 'output_schema' in body) {
    own('output_schema_refused');
    details.field = 'output_schema';
  }
  if (error.status === 404 && tool?.findWith) {
    const list = setNext(details, names, tool.findWith);
    details.hint = list ? `check the id: ${list} shows the ones that exist` : 'check the id';
  }
  if (error.retryAfter) {
    details.retry_after_seconds = Math.ceil(error.retryAfter.ms / 1000);
    details.retry_at = new Date(error.retryAfter.at + error.retryAfter.ms).toISOString();
  }
}
