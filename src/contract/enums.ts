// Enumerations of the spec, kept free of zod so command definitions can use them at start-up.

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const FINAL_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled'];

export const WHITELIST_POLICIES = ['default', 'manual'] as const;
export const LIFE_STATES = ['active', 'expired'] as const;
export const MESSAGE_CHANNELS = ['email', 'sms', 'slack', 'discord', 'web', 'other'] as const;
/** What activate and deactivate answer as their status. */
export const ACTIVATION_STATUSES = ['activated', 'deactivated'] as const;
export const TIMELINE_DIRECTIONS = ['initial', 'older', 'newer'] as const;
/** How a persistent agent's new contacts are approved (the service's contact_approval_mode choices). */
export const CONTACT_APPROVAL_MODES = ['require_approval', 'auto_approve_email'] as const;

/** The sections of an agent's debug trace (agent_debug_trace.DEBUG_TRACE_INCLUDE_SECTIONS), and how much of each text it shows. */
export const TRACE_SECTIONS = ['timeline', 'audit_events', 'completions', 'eval_debug_artifacts', 'diagnostics'] as const;
export const TRACE_DETAILS = ['summary', 'standard', 'verbose'] as const;
