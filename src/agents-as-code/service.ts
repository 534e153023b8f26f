// What agents as code reads from and sends to the service: the live agents (one list walk, plus an
// agent's detail only where a file manages a field the list does not carry), and the request
// bodies, built by the core's one persistent-agent body (src/core/persistent-body.ts).
import type { ApiClient } from '../api/client.js';
import { persistentAgents } from '../api/persistent-agents.js';
import type { PersistentAgentBody } from '../api/schemas/persistent-agent.js';
import { persistentAgentBody } from '../core/persistent-body.js';
import { InputError } from '../errors.js';
import type { AgentSpec } from './files.js';

/** An agent as the service shows it, in the fields a file manages. */
export interface LiveAgent {
  id: string;
  name: string;
  charter: string;
  schedule: string | null;
  is_active?: boolean;
  whitelist_policy?: string;
  contact_approval_mode?: string;
  proactive_opt_in?: boolean;
  preferred_contact_endpoint_id: string | null;
  /** Only in an agent's detail (GET /agents/ID/): read when a file manages it. */
  preferred_llm_tier?: string | null;
  daily_credit_limit?: number | null;
}

/** The fields the list does not carry. */
export const DETAIL_FIELDS = ['preferred_llm_tier', 'daily_credit_limit'] as const;

/** How many detail reads run at once. */
const DETAIL_CONCURRENCY = 8;

/** The body's fields the core's builder does not know yet, checked by the file format (files.ts). */
type AgentsAsCodeBody = PersistentAgentBody & {
  contact_approval_mode?: string;
  preferred_llm_tier?: string;
  daily_credit_limit?: number | null;
};

function live(item: Record<string, unknown>): LiveAgent {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: String(item.id),
    name: String(item.name),
    charter: text(item.charter) ?? '',
    schedule: text(item.schedule) || null,
    is_active: typeof item.is_active === 'boolean' ? item.is_active : undefined,
    whitelist_policy: text(item.whitelist_policy) ?? undefined,
    contact_approval_mode: text(item.contact_approval_mode) ?? undefined,
    proactive_opt_in: typeof item.proactive_opt_in === 'boolean' ? item.proactive_opt_in : undefined,
    preferred_contact_endpoint_id: text(item.preferred_contact_endpoint_id),
    preferred_llm_tier: 'preferred_llm_tier' in item ? text(item.preferred_llm_tier) : undefined,
    daily_credit_limit: 'daily_credit_limit' in item ? (typeof item.daily_credit_limit === 'number' ? item.daily_credit_limit : null) : undefined,
  };
}

/** Every agent of the service, by id (one walk of the list). */
export async function listLive(client: ApiClient, signal?: AbortSignal): Promise<Map<string, LiveAgent>> {
  const agents = new Map<string, LiveAgent>();
  for await (const page of persistentAgents.listAll(client, { signal })) {
    for (const item of page) agents.set(item.id, live(item as Record<string, unknown>));
  }
  return agents;
}

/** Reads the detail of these agents (a few at once) into `agents`. */
export async function readDetails(client: ApiClient, agents: Map<string, LiveAgent>, ids: string[], signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      agents.set(id, live((await persistentAgents.get(client, id, { signal })) as Record<string, unknown>));
    }
  };
  await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, ids.length) }, worker));
}

/** The fields of a spec as a request body: all of them for a create, the `fields` named for an update. */
export function specBody(spec: AgentSpec, fields?: ReadonlySet<string>): AgentsAsCodeBody {
  const wanted = (field: string) => fields === undefined || fields.has(field);
  const pick = <T>(field: string, value: T) => (wanted(field) ? value : undefined);
  const body: AgentsAsCodeBody = persistentAgentBody(
    {
      name: pick('name', spec.name),
      charter: pick('charter', spec.charter),
      schedule: pick('schedule', spec.schedule),
      is_active: pick('active', spec.active),
      whitelist_policy: pick('whitelist_policy', spec.whitelist_policy),
      preferred_contact_endpoint: pick('preferred_contact', spec.preferred_contact),
      proactive_opt_in: pick('proactive', spec.proactive),
    },
    // 'create' whatever is sent: an update of only the fields the builder does not know is not empty.
    'create',
  );
  if (wanted('contact_approval_mode') && spec.contact_approval_mode !== undefined) body.contact_approval_mode = spec.contact_approval_mode;
  if (wanted('preferred_llm_tier') && spec.preferred_llm_tier !== undefined) body.preferred_llm_tier = spec.preferred_llm_tier;
  if (wanted('daily_credit_limit') && spec.daily_credit_limit !== undefined) body.daily_credit_limit = spec.daily_credit_limit;
  return body;
}

/** Thrown for a file whose fields the body builder refused: names the file. */
export class FileFieldError extends InputError {
  constructor(
    readonly file: string,
    error: InputError,
  ) {
    super(error.field, error.problem);
    this.message = `${file}: ${error.field}: ${error.problem}`;
  }
}
