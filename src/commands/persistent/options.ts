import type { ArgumentSpec, OptionSpec } from '../../cli/define.js';
import { LIFE_STATES, WHITELIST_POLICIES } from '../../contract/enums.js';

export const ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const AGENT_ID_ARG: ArgumentSpec = { name: '<id>', description: 'agent id (UUID)' };

/** The writable agent fields shared by create, update and replace. */
export function agentFieldOptions(nameHelp: string): OptionSpec[] {
  return [
    { flags: '--name <name>', description: nameHelp },
    { flags: '--charter <text>', description: "the agent's assigned objectives" },
    { flags: '--charter-file <path>', description: 'read the charter from a file (- for stdin)' },
    { flags: '--schedule <expr>', description: 'when the agent wakes up, evaluated in UTC: @daily, "@every 1h 30m", "0 9 * * mon-fri" (see schedule-preview)' },
    { flags: '--no-schedule', description: 'clear the schedule (the agent only acts when messaged)' },
    { flags: '--active', description: 'the agent is active' },
    { flags: '--paused', description: 'the agent is paused (is_active false)' },
    { flags: '--life-state <state>', description: 'soft expiry state', choices: LIFE_STATES },
    { flags: '--whitelist-policy <policy>', description: 'who may message the agent: default (owner and organisation) or manual (allowlist)', choices: WHITELIST_POLICIES },
    { flags: '--preferred-contact <endpoint>', description: 'email, sms or a contact endpoint UUID' },
    { flags: '--proactive', description: 'let the agent offer related help on its own' },
    { flags: '--no-proactive', description: 'no proactive outreach' },
    { flags: '--template-code <code>', description: 'create from a template' },
    { flags: '--mcp-server <uuid>', description: 'enable a personal MCP server (repeatable)', repeatable: true },
  ];
}
