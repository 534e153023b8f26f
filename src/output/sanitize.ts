// Text from the service (prompts, results, names, error details) reaches people's terminals. Control
// characters in it could set the window title (OSC 0), write the clipboard (OSC 52), clear the
// screen (CSI), hide links (OSC 8) or rewrite the line (CR), and bidirectional overrides show the
// text after them reordered: in every human view they are shown escaped (`\x1b`, `\u202e`) instead.
// Machine output (JSON, --jq) keeps the exact string when piped; on a terminal it gets JSON escapes.

// C0 controls, DEL, C1 controls (U+0080..U+009F, where U+009B is a one-character CSI), and the
// bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// A colour/style sequence (SGR): the only escape agentctl writes itself.
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

function escapeControl(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

/** `\u001b`: the same character as a JSON string escape, so JSON output stays JSON of the same value. */
function jsonEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Machine output (a JSON document, --jq's output) on its way to a terminal: every control character
 * but newline and tab, and every bidirectional control, as a JSON escape. JSON.stringify already
 * escapes C0 controls, so in JSON this changes only C1 and bidirectional ones, and the document
 * still parses to the same value; in --jq's raw strings it stops OSC 52, OSC 8 and the like. Piped
 * output never comes here: scripts get the exact bytes.
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, jsonEscape);
}

/** One line of text (a table cell, a label's value): every control character escaped. */
export function sanitizeLine(text: string): string {
  return text.replace(CONTROLS, escapeControl);
}

/** Text that may span lines (a result, a message): newlines and tabs stay, CR LF becomes LF. */
export function sanitizeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS_BUT_LINES, escapeControl);
}

/**
 * A message agentctl composed, possibly with its own colours: colour sequences stay when colour is
 * on (they can only style text), every other control character is escaped.
 */
export function sanitizeMessage(text: string, keepColour: boolean): string {
  if (!keepColour) return sanitizeText(text);
  const parts = text.split(SGR);
  const colours = text.match(SGR) ?? [];
  return parts.map((part, i) => sanitizeText(part) + (colours[i] ?? '')).join('');
}
