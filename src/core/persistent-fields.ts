// The fields of a persistent agent that are checked by more than their type, as core operations:
// errors name the field (`schedule`, `preferred_contact_endpoint`), and each face words them its own way.
import { isUuid } from '../contract/validate.js';
import { InputError } from '../errors.js';
// The grammar alone: checking a schedule needs no fire-time arithmetic (and no croner).
import { checkSchedule } from '../schedule/grammar.js';
import { pyStrip } from '../schedule/py.js';
import { MAX_SCHEDULE_LENGTH, ScheduleCrash, ScheduleError } from '../schedule/types.js';

/**
 * A schedule expression: blank clears it (as the service treats it); anything else must be what the
 * service accepts, refused in its words (the refusal's `cause` is the grammar's own error). One the
 * service's parser crashes on (a 500 there) passes: see scheduleCrash.
 */
export function checkScheduleExpression(expression: string, field = 'schedule'): string | null {
  // The serializer's CharField(max_length=128) counts characters after its strip.
  if ([...pyStrip(expression)].length > MAX_SCHEDULE_LENGTH) {
    throw Object.assign(new InputError(field, `"${expression}" is not a schedule: Ensure this field has no more than ${MAX_SCHEDULE_LENGTH} characters.`), {
      cause: new ScheduleError(`Ensure this field has no more than ${MAX_SCHEDULE_LENGTH} characters.`),
    });
  }
  try {
    return checkSchedule(expression) === null ? null : expression;
  } catch (error) {
    if (error instanceof ScheduleCrash) return expression;
    if (!(error instanceof ScheduleError)) throw error;
    throw Object.assign(new InputError(field, `"${expression}" is not a schedule: ${error.message}`), { cause: error });
  }
}

/** Why the service answers this schedule with a 500 rather than accepting or refusing it, or null. */
export function scheduleCrash(expression: string | null | undefined): string | null {
  try {
    checkSchedule(expression);
    return null;
  } catch (error) {
    if (error instanceof ScheduleCrash) return error.message;
    return null;
  }
}

/** `email`, `sms` (any case) or a contact endpoint UUID, as the service stores it. */
export function checkPreferredContact(value: string): string {
  if (/^(email|sms)$/i.test(value) || isUuid(value)) return value.toLowerCase();
  throw new InputError('preferred_contact_endpoint', `"${value}" is not email, sms or an endpoint UUID`);
}
