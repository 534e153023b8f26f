// The service's values in our own sentences (summaries, links, completions), which a model reads as
// agentctl speaking, outside the fence: an id only when it is a UUID, a status only when it is one
// agentctl knows, a time only as we render it. Anything else stays in the data, fenced.
import { ResponseShapeError } from '../api/errors.js';
import { isUuid } from '../contract/ids.js';
import { parseInstant } from '../core/schedule-preview.js';

/** A service id that is not a UUID: our words only, so it needs no fence. */
export class ServiceIdError extends ResponseShapeError {
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = 'ServiceIdError';
  }
}

/**
 * An id the service answered, to name in a sentence or put in a URI: a UUID (lower case), or an
 * error that repeats none of it. `created`: it is a create's answer, so the record may exist.
 */
export function serviceId(id: unknown, what: string, created?: { list: string | undefined }): string {
  if (typeof id === 'string' && isUuid(id)) return id.toLowerCase();
  const size = typeof id === 'string' ? `${id.length} characters, not repeated here` : `not a string`;
  // `list`: the list tool as the server offers it (names.ts), none when it does not.
  const hint = created && `the ${what} may have been created: look for it${created.list ? ` with ${created.list}` : ''} before calling again`;
  throw new ServiceIdError(`the service answered with a ${what} id that is not a UUID (${size}); agentctl names and follows only UUIDs`, hint);
}

/** A status the service answered, in our words: itself when it is one of `known`. */
export function knownStatus(status: unknown, known: readonly string[]): string {
  return typeof status === 'string' && known.includes(status) ? status : "a status agentctl does not know (the service's data below shows it)";
}

/** A time the service answered, as we write it (ISO 8601, UTC); undefined when it is not a timestamp. */
export function serviceTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return parseInstant(value).toISOString();
  } catch {
    return undefined;
  }
}
