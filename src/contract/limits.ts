// The service's limits as its code applies them (docs/service-behaviour.md over the OpenAPI document),
// shared by the emulator and anything in the CLI that checks or clamps the same numbers.

export const SERVICE_LIMITS = {
  /** Browser-use agent names: the document says 64; the service's model field (BrowserUseAgent.name) takes 255. */
  legacyAgentName: 255,
  persistentAgentName: 255,
  schedule: 128,
  waitSeconds: 1350,
  outputSchemaDepth: 40,
  outputSchemaKeys: 2000,
  secrets: 50,
  secretDomains: 20,
  secretValueBytes: 4096,
  secretsTotalBytes: 100 * 1024,
  secretKeyLength: 64,
  messageSender: 512,
  messageRecipient: 512,
  messageSubject: 512,
  /** Largest request body the deployment's proxy accepts (nginx `client_max_body_size`); larger is a 413. */
  requestBodyBytes: 1024 * 1024,
  /** An agent file, uploaded or read through the MCP endpoint (settings.MAX_FILE_SIZE, default 10 MiB; a deployment may set another). */
  agentFileBytes: 10 * 1024 * 1024,
  /** A peer link's message budget (remote_mcp._tool_link_agents): messages per window, window in hours. */
  linkMessagesPerWindow: 500,
  linkWindowHours: 168,
  /** The debug trace (agent_debug_trace.py): items per section, and its time window in minutes (7 days). */
  traceLimit: 50,
  traceMinutes: 7 * 24 * 60,
} as const;

/** Limits of list parameters: larger values are clamped, smaller ones raised to the minimum. */
export const PAGE_LIMITS = {
  /** Page-number lists (`page_size`): default 10, at most 100; an invalid value falls back to 10. */
  pageSize: { default: 10, max: 100 },
  /** Agent timeline (`limit`): default 40, clamped to 1..100. */
  timeline: { default: 40, max: 100 },
  /** An agent's web tasks (`limit`): default 50, clamped to 1..200. */
  webTasks: { default: 50, max: 200 },
} as const;

/**
 * The limits every face checks before a request (and the emulator enforces): the service's, above,
 * and agentctl's own. One table, so a face cannot check a number the service does not apply.
 */
export const LIMITS = {
  ...SERVICE_LIMITS,
  /** The largest page a list asks for. */
  pageSize: PAGE_LIMITS.pageSize.max,
  /** Ours, not the service's: the largest response body read by default, and by --max-response at most, in MB (docs/limits.md). */
  bodyMb: 64,
  bodyMbCeiling: 500,
} as const;

/** One request's time limit unless set (--timeout, the profile's `timeout`, the library's timeoutMs, the MCP server's --timeout). */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** `value` clamped to 1..max. */
export function clampLimit(value: number, max: number): number {
  return Math.max(1, Math.min(max, value));
}
