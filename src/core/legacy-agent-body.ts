// A browser-use (legacy) agent's request body, built once for every face: its one writable field,
// the name, checked as the service checks it (BrowserUseAgent.name, at most 255 characters).
import type { LegacyAgentBody } from '../api/legacy-agents.js';
import { LIMITS } from '../contract/limits.js';
import { InputError } from '../errors.js';
import { fields, name } from './checks.js';

/** The writable fields of a browser-use agent, as the service names them. */
export interface LegacyAgentInput {
  name?: string;
}

/** The body of a create, update or replace: every one of them sets the name. */
export function legacyAgentBody(input: LegacyAgentInput, mode: 'create' | 'update' | 'replace'): LegacyAgentBody {
  const given = fields(input, '{ name: "..." }');
  const unknown = Object.keys(given).find((field) => given[field] !== undefined && field !== 'name');
  if (unknown !== undefined) throw new InputError(unknown, 'is not a field of a browser-use agent (its one field: name)');
  if (given.name === undefined) throw mode === 'update' ? new InputError('input', 'nothing to update: give the name') : new InputError('name', 'is required');
  return { name: name('name', given.name, LIMITS.legacyAgentName) };
}
