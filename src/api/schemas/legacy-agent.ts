import * as z from 'zod/mini';
import { dateTime, doc, nullableString } from './common.js';

export const LegacyAgentSchema = doc('A legacy browser-use agent.', z.looseObject({
  id: z.string(),
  name: z.string(),
  user_email: nullableString,
  created_at: z.optional(dateTime),
  updated_at: z.optional(dateTime),
  listing_description: nullableString,
  mini_description: nullableString,
}));
export type LegacyAgent = z.infer<typeof LegacyAgentSchema>;
