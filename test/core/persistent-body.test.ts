import { describe, expect, it } from 'vitest';
import { persistentAgentBody } from '../../src/core/persistent-body.js';
import { InputError } from '../../src/errors.js';

const UUID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** The field and problem a bad input is refused with. */
function refusal(build: () => unknown): { field: string; problem: string } {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    const { field, problem } = error as InputError;
    return { field, problem };
  }
  throw new Error('not refused');
}

describe('persistentAgentBody (src/core/persistent-body.ts)', () => {
  it('keeps only the fields given, checked, lower-casing ids and contact kinds', () => {
    expect(
      persistentAgentBody(
        { name: 'scout', charter: '', schedule: '@daily', preferred_contact_endpoint: 'EMAIL', enabled_personal_server_ids: [UUID.toUpperCase()], is_active: undefined },
        'create',
      ),
    ).toEqual({ name: 'scout', charter: '', schedule: '@daily', preferred_contact_endpoint: 'email', enabled_personal_server_ids: [UUID] });
    expect(persistentAgentBody({ schedule: '  ', preferred_contact_endpoint: null }, 'update')).toEqual({ schedule: null, preferred_contact_endpoint: null });
  });

  it('refuses each bad field by its name, in words that name no flag or tool', () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ name: ' ' }, 'name', /^must not be empty$/],
      [{ name: 'n'.repeat(256) }, 'name', /^is 256 characters long; the limit is 255$/],
      [{ charter: 'x'.repeat(1.2 * 1024 * 1024) }, 'charter', /^is 1258291 bytes long; the limit is 1 MiB/],
      [{ schedule: '61 * * * *' }, 'schedule', /^"61 \* \* \* \*" is not a schedule: /],
      [{ preferred_contact_endpoint: 'pigeon' }, 'preferred_contact_endpoint', /^"pigeon" is not email, sms or an endpoint UUID$/],
      [{ enabled_personal_server_ids: ['nope'] }, 'enabled_personal_server_ids', /^"nope" is not a UUID/],
      [{ life_state: 'asleep' }, 'life_state', /^must be one of active, expired, got "asleep"$/],
      [{ is_active: 'yes' }, 'is_active', /^must be true or false/],
      [{ colour: 'blue' }, 'colour', /^is not a field of a persistent agent/],
      [null, 'input', /^must be an object/],
    ];
    for (const [input, field, problem] of cases) {
      const refused = refusal(() => persistentAgentBody(input as never, 'create'));
      expect(refused.field, JSON.stringify(input)?.slice(0, 60)).toBe(field);
      expect(refused.problem).toMatch(problem);
      expect(refused.problem).not.toMatch(/--|agentctl /);
    }
  });

  it('a replace needs the name; an update at least one field', () => {
    expect(refusal(() => persistentAgentBody({ charter: 'x' }, 'replace'))).toEqual({ field: 'name', problem: 'is required: a replace sets every field' });
    expect(refusal(() => persistentAgentBody({ name: undefined }, 'update'))).toEqual({ field: 'input', problem: 'nothing to update: give at least one field' });
    expect(persistentAgentBody({}, 'create')).toEqual({});
  });
});
