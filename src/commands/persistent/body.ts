import { LIMITS, checkName, checkUuid, isUuid } from '../../contract/validate.js';
import type { PersistentAgentBody } from '../../api/schemas/persistent-agent.js';
import { readTextInput } from '../../cli/input.js';
import { UsageError } from '../../errors.js';
// The grammar alone: validating a flag needs no fire-time arithmetic (and no croner).
import { checkSchedule } from '../../schedule/grammar.js';
import { ScheduleError } from '../../schedule/types.js';

/**
 * Turns the agent flags of create/update/replace into the request body, checking every field the
 * way the service would, so a mistake costs no round trip. Only the flags given are sent.
 */
export async function parseAgentBody(
  options: Record<string, unknown>,
  mode: 'create' | 'update' | 'replace',
  stdin: NodeJS.ReadableStream,
): Promise<PersistentAgentBody> {
  const body: PersistentAgentBody = {};
  if (options.name !== undefined) body.name = checkName(String(options.name), LIMITS.persistentAgentName, '--name');
  else if (mode === 'replace') throw new UsageError('replace sets every field: --name NAME is required');

  if (options.charter !== undefined && options.charterFile !== undefined) {
    throw new UsageError('give the charter once: --charter TEXT or --charter-file PATH');
  }
  if (options.charter !== undefined) body.charter = String(options.charter);
  if (options.charterFile !== undefined) body.charter = await readTextInput(String(options.charterFile), '--charter-file', stdin);

  if (options.schedule === false) body.schedule = null;
  else if (options.schedule !== undefined) body.schedule = checkScheduleFlag(String(options.schedule));

  if (options.active && options.paused) throw new UsageError('--active and --paused contradict each other; give one');
  if (options.active) body.is_active = true;
  if (options.paused) body.is_active = false;

  if (options.lifeState !== undefined) body.life_state = String(options.lifeState);
  if (options.whitelistPolicy !== undefined) body.whitelist_policy = String(options.whitelistPolicy);
  if (options.preferredContact !== undefined) body.preferred_contact_endpoint = checkPreferredContact(String(options.preferredContact));
  if (options.proactive !== undefined) body.proactive_opt_in = Boolean(options.proactive);
  if (options.templateCode !== undefined) body.template_code = String(options.templateCode);
  if (options.mcpServer !== undefined) {
    body.enabled_personal_server_ids = (options.mcpServer as string[]).map((id) => checkUuid(id, '--mcp-server'));
  }

  if (mode === 'update' && Object.keys(body).length === 0) {
    throw new UsageError('nothing to update', 'give at least one field, e.g. --schedule @daily or --paused (see --help)');
  }
  return body;
}

/** A schedule flag: blank clears it (as the service treats it); anything else must parse. */
export function checkScheduleFlag(expression: string): string | null {
  try {
    return checkSchedule(expression) === null ? null : expression;
  } catch (error) {
    if (!(error instanceof ScheduleError)) throw error;
    throw new UsageError(`--schedule "${expression}": ${error.message}`, `check it with: agentctl schedule-preview '${expression}'`);
  }
}

/** `email`, `sms` (any case) or a contact endpoint UUID. */
export function checkPreferredContact(value: string): string {
  if (/^(email|sms)$/i.test(value)) return value.toLowerCase();
  if (isUuid(value)) return value.toLowerCase();
  throw new UsageError(`--preferred-contact "${value}" is not email, sms or an endpoint UUID`);
}
