import type { ParseInput } from '../../cli/define.js';
import type { PersistentAgentBody } from '../../api/schemas/persistent-agent.js';
import { withFlags, type FlagTable, type HintTable } from '../../cli/fields.js';
import { readTextInput } from '../../cli/input.js';
import { UsageError } from '../../errors.js';
import { persistentAgentBody, type PersistentAgentInput, type PersistentBodyMode } from '../../core/persistent-body.js';
import { scheduleCrash } from '../../core/persistent-fields.js';
import type { Context } from '../../cli/context.js';

/** The flag of each field of the core's persistent-agent body (src/core/persistent-body.ts). */
export const AGENT_FLAGS: FlagTable = {
  name: '--name',
  charter: '--charter',
  schedule: '--schedule',
  is_active: '--active/--paused',
  life_state: '--life-state',
  whitelist_policy: '--whitelist-policy',
  preferred_contact_endpoint: '--preferred-contact',
  proactive_opt_in: '--proactive',
  template_code: '--template-code',
  enabled_personal_server_ids: '--mcp-server',
};

const HINTS: HintTable = {
  schedule: (error) => {
    const expression = /^"(.*)" is not a schedule/s.exec(error.problem)?.[1];
    return `check it with: agentctl schedule-preview '${expression ?? 'EXPR'}'`;
  },
  input: () => 'give at least one field, e.g. --schedule @daily or --paused (see --help)',
};

/**
 * Turns the agent flags of create/update/replace into the core's input; the core builds and checks
 * the body. Only the flags given are sent.
 */
export async function parseAgentBody(input: ParseInput, mode: PersistentBodyMode): Promise<PersistentAgentBody> {
  const fields: PersistentAgentInput = {};
  const charter = input.string('charter');
  const charterFile = input.string('charterFile');
  if (charter !== undefined && charterFile !== undefined) throw new UsageError('give the charter once: --charter TEXT or --charter-file PATH');
  fields.charter = charterFile === undefined ? charter : await readTextInput(charterFile, '--charter-file', input.stdin);
  fields.name = input.string('name');
  const schedule = input.value('schedule');
  if (schedule === false) fields.schedule = null;
  else if (typeof schedule === 'string') fields.schedule = schedule;
  if (input.flag('active') && input.flag('paused')) throw new UsageError('--active and --paused contradict each other; give one');
  if (input.flag('active')) fields.is_active = true;
  if (input.flag('paused')) fields.is_active = false;
  fields.life_state = input.string('lifeState') as PersistentAgentInput['life_state'];
  fields.whitelist_policy = input.string('whitelistPolicy') as PersistentAgentInput['whitelist_policy'];
  fields.preferred_contact_endpoint = input.string('preferredContact');
  const proactive = input.value('proactive');
  if (typeof proactive === 'boolean') fields.proactive_opt_in = proactive;
  fields.template_code = input.string('templateCode');
  const mcpServers = input.list('mcpServer');
  if (mcpServers.length > 0) fields.enabled_personal_server_ids = mcpServers;
  return withFlags(AGENT_FLAGS, () => persistentAgentBody(fields, mode), HINTS);
}

/**
 * Says so before sending a schedule the service's parser crashes on: the service, not agentctl, is
 * the judge, so it is sent, and the answer will be its 500.
 */
export function warnScheduleCrash(ctx: Context, body: PersistentAgentBody): void {
  const crash = scheduleCrash(body.schedule);
  if (crash !== null) ctx.out.warn(`--schedule "${body.schedule}": ${crash}; sending it anyway`);
}
