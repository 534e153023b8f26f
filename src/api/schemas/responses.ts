import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { PingSchema, pageOf } from './common.js';
import { LegacyAgentSchema } from './legacy-agent.js';
import * as persistent from './persistent-agent.js';
import * as task from './task.js';

/**
 * Every response the client checks, by name. `npm run generate` compiles each into a predicate
 * (acceptors.generated.js) that the client runs instead of zod; this module, and zod with it, loads
 * only when a predicate refuses a body, to say what is wrong with it.
 */
export const RESPONSE_SCHEMAS = {
  task: task.TaskSchema,
  taskPage: pageOf(task.TaskSchema),
  createdTask: task.CreatedTaskSchema,
  taskResult: task.TaskResultSchema,
  cancel: task.CancelResponseSchema,
  legacyAgent: LegacyAgentSchema,
  legacyAgentPage: pageOf(LegacyAgentSchema),
  persistentAgent: persistent.PersistentAgentSchema,
  persistentAgentPage: pageOf(persistent.PersistentAgentListItemSchema),
  activation: persistent.ActivationResponseSchema,
  webTasks: persistent.WebTasksResponseSchema,
  processingStatus: persistent.ProcessingStatusSchema,
  timeline: persistent.TimelineSchema,
  message: persistent.MessageResponseSchema,
  schedulePreview: persistent.SchedulePreviewSchema,
  ping: PingSchema,
} satisfies Record<string, z.ZodMiniType>;

// zod/mini words every problem "Invalid input"; its English messages say what was expected. They
// cost nothing to a command whose responses are fine: this module loads only to explain a refusal.
// (Only the English locale: `z.locales.en` would bundle all of zod's ~48 languages, 260 KB.)
z.config(en());

export type ResponseName = keyof typeof RESPONSE_SCHEMAS;
