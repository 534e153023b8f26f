// How a tool's answer reaches the client: the data as structuredContent, and as text our summary
// followed by the service's own text, fenced as untrusted data. Task results, prompts, names and
// timeline messages come from web pages and other people; a model must read them as data, never as
// instructions, and the fence tells it which text is which.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Redactor } from '../api/redact.js';
import { sanitizeText } from '../output/sanitize.js';
import { OWN_ERROR_NAMES, describeFailure } from './failure.js';
import { fence } from './fence.js';
import { shrink } from './shrink.js';
import type { ToolNames } from './names.js';
import type { Tool, ToolAnswer } from './tool.js';

/** The largest structuredContent returned, as JSON characters; more says how to read less. */
export const MAX_RESULT_CHARS = 100_000;
/** The JSON shown after the summary in the text rendering (clients that show only text). */
export const MAX_TEXT_JSON_CHARS = 4_000;

/**
 * A tool's answer: the data as structuredContent, the summary and the fenced data as text, links as
 * resource links. Data over MAX_RESULT_CHARS is cut to fit (shrink.ts) and the text says what was cut
 * and how to read it whole; data that no cut brings under it is a too_large error, the summary kept.
 */
export function success(tool: Tool, answer: ToolAnswer, redactor: Redactor): CallToolResult {
  let json = JSON.stringify(answer.data);
  const redacted = redactor.redact(json);
  // A secret or the key echoed by the service is never passed on.
  let structured = redacted === json ? answer.data : (JSON.parse(redacted) as Record<string, unknown>);
  json = redacted;
  let text = sanitizeText(redactor.redact(answer.summary));
  // Links lead to the fenced resources (resources.ts): text, not bare JSON.
  const links = (answer.links ?? []).map((link) => ({ type: 'resource_link' as const, mimeType: 'text/plain', ...link }));
  const quoted = answer.quoted?.length ? `${answer.quoted.join('\n')}\n\n` : '';
  if (json.length > MAX_RESULT_CHARS) {
    const hint = tool.pageHint ?? 'ask for less at once';
    const size = `The answer is ${json.length} characters of JSON, more than the ${MAX_RESULT_CHARS} a call returns`;
    const shrunk = shrink(structured, MAX_RESULT_CHARS);
    if (!shrunk) return tooLarge(`${text}\n\n${size}: ${hint}.`, hint, redactor.redact(quoted.slice(0, MAX_TEXT_JSON_CHARS)), tool);
    structured = shrunk.data;
    json = JSON.stringify(structured);
    text += `\n\n${size}: ${shrunk.cut}. For all of it, ${hint}.`;
  }
  const shown = json.length > MAX_TEXT_JSON_CHARS ? `${json.slice(0, MAX_TEXT_JSON_CHARS)}… (${json.length} characters in all, whole in structuredContent)` : json;
  text += `\n\n${body(tool, redactor.redact(quoted) + shown)}`;
  return { content: [{ type: 'text', text }, ...links], structuredContent: structured };
}

/** The service's text after our own words: fenced, except for an offline tool's answer, which is our own (schedule_preview). */
const body = (tool: Tool, text: string) => (tool.openWorld === false ? sanitizeText(text) : fence(sanitizeText(text)));

/** An answer that does not fit even cut: a too_large error that keeps the summary and the records' lines. */
function tooLarge(message: string, hint: string, quoted: string, tool: Tool): CallToolResult {
  const kind = OWN_ERROR_NAMES.find((entry) => entry.name === 'too_large')!;
  const text = `${kind.name} (exit code ${kind.exit_code}: ${kind.meaning}): ${message}${quoted ? `\n\n${body(tool, quoted)}` : ''}`;
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { error: { ...kind, message: sanitizeText(message), hint } } };
}

/** A failed call: the error's details as structuredContent (what the outputSchema allows), the message as text. */
export function failure(error: unknown, redactor: Redactor, tool?: Tool, names?: ToolNames): CallToolResult {
  const { message, error: details } = describeFailure(error, redactor, tool, names);
  return { isError: true, content: [{ type: 'text', text: sanitizeText(message) }], structuredContent: { error: details } };
}
