import { z } from 'zod';
import { dateTime, nullableString } from './common.js';

export const PersistentAgentListItemSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  charter: nullableString,
  schedule: nullableString,
  // Always sent by the service, but not required by the document: a missing flag reads as unknown.
  is_active: z.boolean().optional(),
  life_state: z.string().optional(),
  whitelist_policy: z.string().optional(),
  last_interaction_at: nullableString,
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
  // The reference deployment sends a numeric string ("42"); the spec says integer.
  user_id: z.union([z.string(), z.number()]).nullable().optional(),
  organization_id: nullableString,
  browser_use_agent_id: nullableString,
  preferred_contact_endpoint_id: nullableString,
  proactive_opt_in: z.boolean().optional(),
  proactive_last_trigger_at: nullableString,
});

export const PersistentAgentSchema = PersistentAgentListItemSchema.extend({
  short_description: nullableString,
  schedule_snapshot: nullableString,
  available_mcp_servers: z.array(z.unknown()).optional(),
  personal_mcp_server_ids: z.array(z.string()).optional(),
});
export type PersistentAgent = z.infer<typeof PersistentAgentSchema>;
export type PersistentAgentListItem = z.infer<typeof PersistentAgentListItemSchema>;

export const ActivationResponseSchema = z.looseObject({ status: z.string(), updated: z.boolean().optional() });
export type ActivationResponse = z.infer<typeof ActivationResponseSchema>;

export const WebTaskSchema = z.looseObject({ id: z.string(), status: z.string() });
export const WebTasksResponseSchema = z.looseObject({ results: z.array(WebTaskSchema), limit: z.number().optional() });
export type WebTask = z.infer<typeof WebTaskSchema>;
export type WebTasksResponse = z.infer<typeof WebTasksResponseSchema>;

export const ProcessingStatusSchema = z.looseObject({
  processing_active: z.boolean(),
  processing_snapshot: z
    .looseObject({
      active: z.boolean().optional(),
      webTasks: z.array(z.looseObject({ id: z.string().optional() })).optional(),
      nextScheduledAt: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type ProcessingStatus = z.infer<typeof ProcessingStatusSchema>;

export const TimelineEventSchema = z.looseObject({
  kind: z.string(),
  cursor: z.string().optional(),
  timestamp: z.string().optional(),
});
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;

export const TimelineSchema = z.looseObject({
  events: z.array(TimelineEventSchema),
  oldest_cursor: z.string().nullable().optional(),
  newest_cursor: z.string().nullable().optional(),
  has_more_older: z.boolean().optional(),
  has_more_newer: z.boolean().optional(),
  processing_active: z.boolean().optional(),
});
export type Timeline = z.infer<typeof TimelineSchema>;

export const MessageResponseSchema = z.looseObject({ event: z.looseObject({ kind: z.string().optional() }) });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

export const SchedulePreviewSchema = z.looseObject({
  valid: z.boolean().optional(),
  disabled: z.boolean().optional(),
  description: z.string().nullable().optional(),
});
export type SchedulePreview = z.infer<typeof SchedulePreviewSchema>;

/** The writable fields of a persistent agent, as sent on create (POST), update (PATCH) and replace (PUT). */
export interface PersistentAgentBody {
  name?: string;
  charter?: string;
  schedule?: string | null;
  is_active?: boolean;
  life_state?: string;
  whitelist_policy?: string;
  preferred_contact_endpoint?: string | null;
  proactive_opt_in?: boolean;
  template_code?: string | null;
  enabled_personal_server_ids?: string[];
}
