import * as z from 'zod/mini';
import { dateTime, doc, nullableString } from './common.js';

export const PersistentAgentListItemSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  charter: nullableString,
  schedule: nullableString,
  is_active: doc('Always sent by the service, but not required by its API document: missing, it is not known.', z.optional(z.boolean())),
  life_state: z.optional(z.string()),
  whitelist_policy: z.optional(z.string()),
  last_interaction_at: nullableString,
  created_at: z.optional(dateTime),
  updated_at: z.optional(dateTime),
  user_id: doc('Its owner: the reference deployment sends a numeric string ("42"), the spec an integer.', z.optional(z.nullable(z.union([z.string(), z.number()])))),
  organization_id: nullableString,
  browser_use_agent_id: nullableString,
  preferred_contact_endpoint_id: nullableString,
  proactive_opt_in: z.optional(z.boolean()),
  proactive_last_trigger_at: nullableString,
});

export const PersistentAgentSchema = doc(
  'A persistent agent.',
  z.extend(PersistentAgentListItemSchema, {
    short_description: nullableString,
    schedule_snapshot: nullableString,
    available_mcp_servers: z.optional(z.array(z.unknown())),
    personal_mcp_server_ids: z.optional(z.array(z.string())),
  }),
);
export type PersistentAgent = z.infer<typeof PersistentAgentSchema>;
export type PersistentAgentListItem = z.infer<typeof PersistentAgentListItemSchema>;

export const ActivationResponseSchema = doc('The answer to an activate or deactivate.', z.looseObject({ status: z.string(), updated: z.optional(z.boolean()) }));
export type ActivationResponse = z.infer<typeof ActivationResponseSchema>;

export const WebTaskSchema = doc('A browser task a persistent agent started.', z.looseObject({ id: z.string(), status: z.string() }));
export const WebTasksResponseSchema = z.looseObject({ results: z.array(WebTaskSchema), limit: z.optional(z.number()) });
export type WebTask = z.infer<typeof WebTaskSchema>;
export type WebTasksResponse = z.infer<typeof WebTasksResponseSchema>;

export const ProcessingStatusSchema = doc("Whether the agent is working now, its web tasks and its next scheduled run.", z.looseObject({
  processing_active: z.boolean(),
  processing_snapshot: z.optional(
    z.nullable(
      z.looseObject({
        active: z.optional(z.boolean()),
        webTasks: z.optional(z.array(z.looseObject({ id: z.optional(z.string()) }))),
        nextScheduledAt: z.optional(z.nullable(z.string())),
      }),
    ),
  ),
}));
export type ProcessingStatus = z.infer<typeof ProcessingStatusSchema>;

export const TimelineEventSchema = doc("One event of a persistent agent's timeline.", z.looseObject({
  kind: z.string(),
  cursor: z.optional(z.string()),
  timestamp: z.optional(z.string()),
}));
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;

export const TimelineSchema = doc('One window of a timeline, events oldest first.', z.looseObject({
  events: z.array(TimelineEventSchema),
  oldest_cursor: z.optional(z.nullable(z.string())),
  newest_cursor: z.optional(z.nullable(z.string())),
  has_more_older: z.optional(z.boolean()),
  has_more_newer: z.optional(z.boolean()),
  processing_active: z.optional(z.boolean()),
}));
export type Timeline = z.infer<typeof TimelineSchema>;

export const MessageResponseSchema = z.looseObject({ event: z.looseObject({ kind: z.optional(z.string()) }) });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

export const SchedulePreviewSchema = doc('What the service says of a schedule expression.', z.looseObject({
  valid: z.optional(z.boolean()),
  disabled: z.optional(z.boolean()),
  description: z.optional(z.nullable(z.string())),
}));
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
