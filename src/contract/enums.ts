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
