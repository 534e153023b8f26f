// How a tool's answer reaches the client: the data as structuredContent, and as text our summary
// followed by the service's own text, fenced as untrusted data. Task results, prompts, names and
// timeline messages come from web pages and other people; a model must read them as data, never as
// instructions, and the fence tells it which text is which.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Redactor } from '../api/redact.js';
import { sanitizeText } from '../output/sanitize.js';
import { describeFailure } from './failure.js';
import { fence } from './fence.js';
import type { Tool, ToolAnswer } from './tool.js';

/** The largest structuredContent returned, as JSON characters; more says how to read less. */
export const MAX_RESULT_CHARS = 100_000;
/** The JSON shown after the summary in the text rendering (clients that show only text). */
export const MAX_TEXT_JSON_CHARS = 4_000;

/** A tool's answer: the data as structuredContent, the summary and the fenced data as text, links as resource links. */
export function success(tool: Tool, answer: ToolAnswer, redactor: Redactor): CallToolResult {
  let json = JSON.stringify(answer.data);
  const redacted = redactor.redact(json);
  // A secret or the key echoed by the service is never passed on.
  let structured = redacted === json ? answer.data : (JSON.parse(redacted) as Record<string, unknown>);
  json = redacted;
  let text = sanitizeText(redactor.redact(answer.summary));
  // Links lead to the fenced resources (resources.ts): text, not bare JSON.
  const links = (answer.links ?? []).map((link) => ({ type: 'resource_link' as const, mimeType: 'text/plain', ...link }));
  if (json.length > MAX_RESULT_CHARS) {
    const hint = tool.pageHint ?? 'ask for less at once';
    structured = { truncated: true, size_chars: json.length, hint };
    text += `\n\nThe answer is ${json.length} characters of JSON, more than the ${MAX_RESULT_CHARS} returned: ${hint}.`;
    return { content: [{ type: 'text', text }, ...links], structuredContent: structured };
  }
  const shown = json.length > MAX_TEXT_JSON_CHARS ? `${json.slice(0, MAX_TEXT_JSON_CHARS)}… (${json.length} characters in all, whole in structuredContent)` : json;
  const quoted = answer.quoted?.length ? `${answer.quoted.join('\n')}\n\n` : '';
  // An offline tool's answer is our own (schedule_preview): no service text to fence.
  const body = sanitizeText(redactor.redact(quoted) + shown);
  text += `\n\n${tool.openWorld === false ? body : fence(body)}`;
  return { content: [{ type: 'text', text }, ...links], structuredContent: structured };
}

/** A failed call: the error's details as structuredContent (what the outputSchema allows), the message as text. */
export function failure(error: unknown, redactor: Redactor, tool?: Tool): CallToolResult {
  const { message, error: details } = describeFailure(error, redactor, tool);
  return { isError: true, content: [{ type: 'text', text: sanitizeText(message) }], structuredContent: { error: details } };
}
