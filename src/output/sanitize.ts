// Text from the service (prompts, results, names, error details) reaches people's terminals. Control
// characters in it could set the window title (OSC), clear the screen (CSI), hide links (OSC 8) or
// rewrite the line (CR): in every human view they are shown escaped (`\x1b`) instead. JSON output
// keeps the exact string.

// C0 controls, DEL and C1 controls (U+0080..U+009F, where U+009B is a one-character CSI).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// A colour/style sequence (SGR): the only escape agentctl writes itself.
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

function escapeControl(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
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
