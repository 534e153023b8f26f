// A persistent agent's request body, built once for every face: the command line's flags, the MCP
// server's arguments and the library's input all arrive here as the service's own field names, and
// leave as the body of a create (POST), update (PATCH) or replace (PUT), every field checked as the
// service checks it, so a mistake costs no request. Errors name the field (InputError); each face
// words it its own way (a flag, a tool argument, the library's field).
import type { PersistentAgentBody } from '../api/schemas/persistent-agent.js';
import { LIFE_STATES, WHITELIST_POLICIES } from '../contract/enums.js';
import { LIMITS } from '../contract/limits.js';
import { InputError } from '../errors.js';
import { boolean, fields, name, oneOf, string, text, uuids } from './checks.js';
import { checkPreferredContact, checkScheduleExpression } from './persistent-fields.js';
import type { PersistentAgentInput } from './persistent-input.js';

export type { PersistentAgentBody };

export type { PersistentAgentInput };

export type PersistentBodyMode = 'create' | 'update' | 'replace';

type Field = keyof PersistentAgentInput;

/** Each field's check, in the order a complaint about several is made (the first one wins). */
const CHECKS: { [F in Field]-?: (value: unknown) => PersistentAgentBody[F] } = {
  name: (value) => name('name', value, LIMITS.persistentAgentName),
  charter: (value) => text('charter', value),
  schedule: (value) => (value === null ? null : checkScheduleExpression(string('schedule', value))),
  is_active: (value) => boolean('is_active', value),
  life_state: (value) => oneOf('life_state', value, LIFE_STATES),
  whitelist_policy: (value) => oneOf('whitelist_policy', value, WHITELIST_POLICIES),
  preferred_contact_endpoint: (value) => (value === null ? null : checkPreferredContact(string('preferred_contact_endpoint', value))),
  proactive_opt_in: (value) => boolean('proactive_opt_in', value),
  template_code: (value) => (value === null ? null : string('template_code', value)),
  enabled_personal_server_ids: (value) => uuids('enabled_personal_server_ids', value),
};

/** The fields a persistent agent's body may carry. */
export const PERSISTENT_AGENT_FIELDS = Object.keys(CHECKS) as Field[];

/**
 * The body of a create, update or replace: only the fields given (undefined is not given), each
 * checked. A replace needs a name; an update at least one field; an unknown field is refused
 * rather than sent (the service would ignore it, and the caller would think it set).
 */
export function persistentAgentBody(input: PersistentAgentInput, mode: PersistentBodyMode): PersistentAgentBody {
  const given = fields(input, '{ name, charter, schedule }');
  const unknown = Object.keys(given).find((field) => given[field] !== undefined && !Object.hasOwn(CHECKS, field));
  if (unknown !== undefined) throw new InputError(unknown, `is not a field of a persistent agent (the fields: ${PERSISTENT_AGENT_FIELDS.join(', ')})`);
  const body: Record<string, unknown> = {};
  for (const field of PERSISTENT_AGENT_FIELDS) if (given[field] !== undefined) body[field] = CHECKS[field](given[field]);
  if (mode === 'replace' && body.name === undefined) throw new InputError('name', 'is required: a replace sets every field');
  if (mode === 'update' && Object.keys(body).length === 0) throw new InputError('input', 'nothing to update: give at least one field');
  return body as PersistentAgentBody;
}
