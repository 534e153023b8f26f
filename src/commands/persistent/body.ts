import type { ParseInput } from '../../cli/define.js';
import { LIMITS, checkName, checkUuid } from '../../contract/validate.js';
import type { PersistentAgentBody } from '../../api/schemas/persistent-agent.js';
import { readTextInput } from '../../cli/input.js';
import { InputError, UsageError } from '../../errors.js';
import { checkPreferredContact as checkContact, checkScheduleExpression, scheduleCrash } from '../../core/persistent-fields.js';
import type { Context } from '../../cli/context.js';

/**
 * Turns the agent flags of create/update/replace into the request body, checking every field the
 * way the service would, so a mistake costs no round trip. Only the flags given are sent.
 */
export async function parseAgentBody(input: ParseInput, mode: 'create' | 'update' | 'replace'): Promise<PersistentAgentBody> {
  const name = input.string('name');
  const charter = input.string('charter');
  const charterFile = input.string('charterFile');
  const schedule = input.value('schedule');
  const body: PersistentAgentBody = {};
  if (name !== undefined) body.name = checkName(name, LIMITS.persistentAgentName, '--name');
  else if (mode === 'replace') throw new UsageError('replace sets every field: --name NAME is required');

  if (charter !== undefined && charterFile !== undefined) {
    throw new UsageError('give the charter once: --charter TEXT or --charter-file PATH');
  }
  if (charter !== undefined) body.charter = charter;
  if (charterFile !== undefined) body.charter = await readTextInput(charterFile, '--charter-file', input.stdin);

  if (schedule === false) body.schedule = null;
  else if (typeof schedule === 'string') body.schedule = checkScheduleFlag(schedule);

  if (input.flag('active') && input.flag('paused')) throw new UsageError('--active and --paused contradict each other; give one');
  if (input.flag('active')) body.is_active = true;
  if (input.flag('paused')) body.is_active = false;

  const lifeState = input.string('lifeState');
  if (lifeState !== undefined) body.life_state = lifeState;
  const whitelistPolicy = input.string('whitelistPolicy');
  if (whitelistPolicy !== undefined) body.whitelist_policy = whitelistPolicy;
  const preferredContact = input.string('preferredContact');
  if (preferredContact !== undefined) body.preferred_contact_endpoint = checkPreferredContact(preferredContact);
  const proactive = input.value('proactive');
  if (typeof proactive === 'boolean') body.proactive_opt_in = proactive;
  const templateCode = input.string('templateCode');
  if (templateCode !== undefined) body.template_code = templateCode;
  const mcpServers = input.list('mcpServer');
  if (mcpServers.length > 0) body.enabled_personal_server_ids = mcpServers.map((id) => checkUuid(id, '--mcp-server'));

  if (mode === 'update' && Object.keys(body).length === 0) {
    throw new UsageError('nothing to update', 'give at least one field, e.g. --schedule @daily or --paused (see --help)');
  }
  return body;
}

/** A schedule flag: blank clears it (as the service treats it); anything else must parse. */
export function checkScheduleFlag(expression: string): string | null {
  try {
    return checkScheduleExpression(expression);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new UsageError(`--schedule "${expression}": ${(error.cause as Error).message}`, `check it with: agentctl schedule-preview '${expression}'`);
  }
}

/**
 * Says so before sending a schedule the service's parser crashes on: the service, not agentctl, is
 * the judge, so it is sent, and the answer will be its 500.
 */
export function warnScheduleCrash(ctx: Context, body: PersistentAgentBody): void {
  const crash = scheduleCrash(body.schedule);
  if (crash !== null) ctx.out.warn(`--schedule "${body.schedule}": ${crash}; sending it anyway`);
}

/** `email`, `sms` (any case) or a contact endpoint UUID. */
export function checkPreferredContact(value: string): string {
  try {
    return checkContact(value);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new UsageError(`--preferred-contact ${error.problem}`);
  }
}
