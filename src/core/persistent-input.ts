// The writable fields of a persistent agent, the input of the core's body builder
// (persistent-body.ts), in a file of their own: the library declares them to its users, whose type
// checks must not reach the response schemas (zod is bundled away, not installed with agentctl).
import type { LIFE_STATES, WHITELIST_POLICIES } from '../contract/enums.js';

/** The writable fields of a persistent agent, as the service names them. */
export interface PersistentAgentInput {
  name?: string;
  /** The agent's standing objectives (may be empty). */
  charter?: string;
  /** When it wakes up, in UTC; null or blank clears it. */
  schedule?: string | null;
  is_active?: boolean;
  life_state?: (typeof LIFE_STATES)[number];
  whitelist_policy?: (typeof WHITELIST_POLICIES)[number];
  /** `email`, `sms` or a contact endpoint UUID; null clears it. */
  preferred_contact_endpoint?: string | null;
  proactive_opt_in?: boolean;
  template_code?: string | null;
  enabled_personal_server_ids?: string[];
}

