import type { Lifecycle } from '../lifecycle.js';
import type { Answer, Request, Route } from '../route-types.js';
import type { State } from '../state.js';

// What the remote MCP tools work with: the emulator's one set of records (the REST routes see
// every change a tool makes and the other way round), the task lifecycle, and the REST routes
// themselves, which the agent tools call as the service's tools call its serializer.

export interface McpServices {
  state: State;
  lifecycle: Lifecycle;
  routes: Route[];
}

/**
 * Runs one of the emulator's REST routes in-process with a JSON body, as the service's tools reuse
 * PersistentAgentSerializer and its provisioning path: an HttpError it throws reaches the caller.
 */
export async function callRoute(services: McpServices, method: string, path: string, body: Record<string, unknown> | undefined, url: URL): Promise<Answer> {
  for (const route of services.routes) {
    const match = route.pattern.exec(path);
    const handler = match ? route.methods[method] : undefined;
    if (!match || !handler) continue;
    const request: Request = {
      method,
      path,
      url: new URL(`/api/v1${path}`, url),
      params: match.slice(1),
      body: () => body ?? {},
      rawBody: JSON.stringify(body ?? {}),
      contentType: 'application/json',
    };
    return handler(request);
  }
  throw new Error(`no emulator route answers ${method} ${path}`);
}
