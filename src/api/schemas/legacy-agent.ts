import { z } from 'zod';
import { dateTime, nullableString } from './common.js';

export const LegacyAgentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  user_email: nullableString,
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
  listing_description: nullableString,
  mini_description: nullableString,
});
export type LegacyAgent = z.infer<typeof LegacyAgentSchema>;
