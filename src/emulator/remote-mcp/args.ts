// Reading a tool's arguments as remote_mcp.py's helpers do (_bounded_int, _parse_uuid,
// _required_string, _optional_string, _optional_bool): each failure is a tool error (isError: true)
// worded as the service words it.

/** MCPToolError: a tool's failure; `data` becomes the error result's `details`. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type Args = Record<string, unknown>;

/** Python's int(value): an int, a float (truncated) or a text of digits (with _ and blanks); bools refused. */
export function boundedInt(value: unknown, key: string, minimum: number, maximum: number): number {
  const number = pythonInt(value);
  if (number === undefined) throw new ToolError(`${key} must be an integer.`);
  if (number < minimum || number > maximum) throw new ToolError(`${key} must be between ${minimum} and ${maximum}.`);
  return number;
}

function pythonInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return /^[-+]?\d+(?:_\d+)*$/.test(text) ? Number(text.replace(/_/g, '')) : undefined;
}

/** uuid.UUID(str(value)), canonical: braces, a urn:uuid: prefix and hyphens anywhere are read, as Python reads them. */
export function parseUuid(value: unknown, key: string): string {
  const text = typeof value === 'string' ? value : value === null || value === undefined ? String(value) : typeof value === 'number' ? String(value) : '';
  const hex = text.replace(/^urn:/, '').replace(/^uuid:/, '').replace(/^\{|\}$/g, '').replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new ToolError(`${key} must be a valid UUID.`);
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** _required_string: a text; without allowBlank a blank one is refused and the text is stripped. */
export function requiredString(args: Args, key: string, allowBlank = false): string {
  const value = args[key];
  if (typeof value !== 'string') throw new ToolError(`${key} must be a string.`);
  if (!allowBlank && value.trim() === '') throw new ToolError(`${key} cannot be blank.`);
  return allowBlank ? value : value.trim();
}

/** _optional_string: null when absent or null; otherwise a non-blank text, stripped. */
export function optionalString(args: Args, key: string): string | null {
  const value = args[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ToolError(`${key} must be a string.`);
  if (value.trim() === '') throw new ToolError(`${key} cannot be blank.`);
  return value.trim();
}

/** _optional_bool: only true or false (no "true", no 1). */
export function optionalBool(value: unknown, key: string): boolean {
  if (typeof value === 'boolean') return value;
  throw new ToolError(`${key} must be a boolean.`);
}

/** Python's truthiness of an argument (`arguments.get(key) or ...`). */
export function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Python's isoformat() of a time the emulator writes as DRF does: `+00:00` instead of `Z`. */
export const isoformat = (stamp: string | null): string | null => (stamp ? stamp.replace(/Z$/, '+00:00') : null);
