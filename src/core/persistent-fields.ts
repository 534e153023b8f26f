// The fields of a persistent agent that are checked by more than their type, as core operations:
// errors name the field (`schedule`, `preferred_contact`), and each face words them its own way.
import { isUuid } from '../contract/validate.js';
import { InputError } from '../errors.js';
// The grammar alone: checking a schedule needs no fire-time arithmetic (and no croner).
import { checkSchedule } from '../schedule/grammar.js';
import { ScheduleError } from '../schedule/types.js';

/**
 * A schedule expression: blank clears it (as the service treats it); anything else must parse. The
 * refusal's `cause` is the grammar's own error (what is wrong, without the expression).
 */
export function checkScheduleExpression(expression: string, field = 'schedule'): string | null {
  try {
    return checkSchedule(expression) === null ? null : expression;
  } catch (error) {
    if (!(error instanceof ScheduleError)) throw error;
    throw Object.assign(new InputError(field, `"${expression}" is not a schedule: ${error.message}`), { cause: error });
  }
}

/** `email`, `sms` (any case) or a contact endpoint UUID, as the service stores it. */
export function checkPreferredContact(value: string): string {
  if (/^(email|sms)$/i.test(value) || isUuid(value)) return value.toLowerCase();
  throw new InputError('preferred_contact', `"${value}" is not email, sms or an endpoint UUID`);
}
