import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUuid } from '../contract/ids.js';
import type { FormSpec } from './form.js';
import { notFound } from './http.js';
import type { Lifecycle } from './lifecycle.js';
import type { State } from './state.js';

// What every route module shares (kept apart from routes.ts so the persistent-agent routes and the
// others import it, not each other).

export interface Request {
  method: string;
  /** The path below the base URL (e.g. /tasks/browser-use/). */
  path: string;
  url: URL;
  params: string[];
  /** The body's data; a form is read through `spec` (how the operation's serializer reads each field). */
  body: (spec: FormSpec) => Record<string, unknown>;
  /** The body as it came, and its Content-Type (a plain Django view reads them itself: the inbound webhook). */
  rawBody?: string;
  contentType?: string | undefined;
}

/** An answer: `body` is serialized as JSON; `json` is a body already serialized. */
export type Answer = { status: number; body?: unknown; json?: string };
type Handler = (request: Request) => Answer | Promise<Answer>;

export interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
  /** Routes that take no API key (the inbound agent webhook). */
  public?: boolean;
  /** A view that answers every method itself once the key is checked (the remote MCP endpoint); `methods` is then empty. */
  serve?: (call: ViewCall) => Promise<void>;
}

/** What a view of its own gets: the request, its body as it came, and where to answer. */
export interface ViewCall {
  req: IncomingMessage;
  res: ServerResponse;
  rawBody: string;
  /** The request's URL (its host as the Host header names it). */
  url: URL;
}

/** What the routes work on: the records (with the clock), the task lifecycle and the webhooks sent. */
export interface Services {
  state: State;
  lifecycle: Lifecycle;
  /** Resolves once a task's completion webhook, if any, was delivered (or failed). */
  webhookDelivered?: (taskId: string) => Promise<void>;
}

/** The id segment of a DRF router route: anything but `/` and `.`; a malformed id is then a JSON 404. */
export const ROUTER_ID = '([^/.]+)';

/**
 * The router route's id, lower-cased. One that is not a UUID is a bare 404 "Not found.": DRF's
 * generics.get_object_or_404 turns the model field's ValidationError into an Http404 without text.
 */
export function routerId(request: Request): string {
  const id = request.params[0] as string;
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}
