// A plan as plain data, the one shape every face gives it (`--json`, the library, the MCP tools):
// its own file, importing nothing, so the library declares it to its users as it is.

export interface PlanRecord {
  service: string;
  /** Whether apply would change anything on the service. */
  changes: boolean;
  counts: { create: number; update: number; unchanged: number; delete: number };
  actions: Array<{
    action: 'create' | 'update' | 'unchanged' | 'delete';
    file: string;
    name: string;
    id: string | null;
    /** How the file found its agent: lock (the lock file), adopt (by name), recover (a create a stopped run left pending); null for a create. */
    via: 'lock' | 'adopt' | 'recover' | null;
    created_by_apply: boolean;
    /** `from` is absent on a create. */
    changes: Array<{ field: string; from?: unknown; to: unknown }>;
    /** The charter's line diff: '-' the service's lines, '+' the file's, ' ' context, '…' lines left out. */
    charter_diff: string[];
  }>;
  /** Agents recorded for files that are gone, left on the service. */
  kept: Array<{ file: string; name: string; id: string; reason: 'adopted' | 'not-pruned' }>;
}
