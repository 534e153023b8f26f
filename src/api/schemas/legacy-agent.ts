import * as z from 'zod/mini';
import { dateTime, nullableString } from './common.js';

export const LegacyAgentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  user_email: nullableString,
  created_at: z.optional(dateTime),
  updated_at: z.optional(dateTime),
  listing_description: nullableString,
  mini_description: nullableString,
});
export type LegacyAgent = z.infer<typeof LegacyAgentSchema>;
