import { HttpError, notFound } from './http.js';

// What DRF's APIView does around every operation of the service before and after its handler
// (rest_framework/views.py APIView.initial and finalize_response, DRF 3.16.1, with the service's
// settings: the default renderers and parsers, its authentication classes in config/settings.py):
// content negotiation, the Token authentication the service lists but cannot serve, the Allow and
// Vary headers, and OPTIONS' metadata.

/** The service's renderers (DRF's defaults): JSONRenderer, then BrowsableAPIRenderer. */
const RENDERERS = [
  { media: 'application/json', format: 'json' },
  { media: 'text/html', format: 'api' },
] as const;

export type Renderer = (typeof RENDERERS)[number]['format'];

/** How the answer is rendered: JSON (indented when the Accept header asks `indent=N`), or the browsable page. */
export interface Rendering {
  renderer: Renderer;
  indent?: number;
}

interface MediaType {
  main: string;
  sub: string;
  params: Map<string, string>;
}

/** rest_framework/utils/mediatypes.py _MediaType: Django's parse_header_parameters, the type lower-cased. */
function mediaType(text: string): MediaType {
  const [full = '', ...rest] = text.split(';');
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1'));
  }
  const [main = '', sub = ''] = ((split) => (split < 0 ? [full.trim().toLowerCase(), ''] : [full.slice(0, split).trim().toLowerCase(), full.slice(split + 1).trim().toLowerCase()]))(full.indexOf('/'));
  return { main, sub, params };
}

/** _MediaType.precedence: any type 0, `type/*` 1, a full type 2, one with parameters other than q 3. */
function precedence(type: MediaType): number {
  if (type.main === '*') return 0;
  if (type.sub === '*') return 1;
  return [...type.params.keys()].some((key) => key !== 'q') ? 3 : 2;
}

/** _MediaType.match, from the renderer's side (its media type has no parameters): q is never read. */
function matches(renderer: MediaType, wanted: MediaType): boolean {
  if (renderer.sub !== '*' && wanted.sub !== '*' && wanted.sub !== renderer.sub) return false;
  return renderer.main === '*' || wanted.main === '*' || wanted.main === renderer.main;
}

/**
 * DefaultContentNegotiation.select_renderer (rest_framework/negotiation.py): `?format=` keeps the
 * renderers of that format (none: Http404, a bare 404), then the Accept header's types, most
 * specific first, pick the first renderer that matches (none: 406). q values are not weighed.
 */
export function negotiate(format: string | null, accept: string | undefined): Rendering {
  const renderers = format ? RENDERERS.filter((renderer) => renderer.format === format) : RENDERERS;
  if (renderers.length === 0) throw notFound();
  const wanted = (accept ?? '*/*').split(',').map((token) => mediaType(token.trim()));
  for (const level of [3, 2, 1, 0]) {
    const types = wanted.filter((type) => precedence(type) === level);
    for (const renderer of renderers) {
      const type = types.find((candidate) => matches(mediaType(renderer.media), candidate));
      if (type) return { renderer: renderer.format, ...(renderer.format === 'json' ? jsonIndent(type.params.get('indent')) : {}) };
    }
  }
  throw new HttpError(406, { detail: 'Could not satisfy the request Accept header.' });
}

/** JSONRenderer.get_indent: Python's int() of `indent=`, clamped to 0..8, 0 meaning none. */
function jsonIndent(raw: string | undefined): { indent?: number } {
  if (raw === undefined || !/^\s*[-+]?\d+(?:_\d+)*\s*$/.test(raw)) return {};
  const indent = Math.max(0, Math.min(8, Number(raw.replace(/_/g, ''))));
  return indent === 0 ? {} : { indent };
}

/**
 * The service's TokenAuthentication (third in its DEFAULT_AUTHENTICATION_CLASSES), for a request
 * without X-Api-Key: `Authorization: Token <key>` makes it load rest_framework.authtoken's Token
 * model, an app the service does not install, so the import raises and its exception handler
 * answers 500. A malformed Token header is AuthenticationFailed first (a 403: the first class,
 * APIKeyAuthentication, names no WWW-Authenticate). Anything else is no credentials (undefined).
 */
export function tokenAuthentication(header: string | undefined, serverError: () => HttpError): void {
  if (header === undefined) return;
  // get_authorization_header: the header's bytes (ISO-8859-1), split on ASCII whitespace.
  const parts = header.split(/[ \t\n\r\v\f]+/).filter((part) => part !== '');
  if (parts.length === 0 || (parts[0] as string).toLowerCase() !== 'token') return;
  if (parts.length === 1) throw new HttpError(403, { detail: 'Invalid token header. No credentials provided.' });
  if (parts.length > 2) throw new HttpError(403, { detail: 'Invalid token header. Token string should not contain spaces.' });
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(parts[1] as string, 'latin1'));
  } catch {
    throw new HttpError(403, { detail: 'Invalid token header. Token string should not contain invalid characters.' });
  }
  throw serverError();
}

/** The view a path's route belongs to: its name and description as get_view_name/get_view_description give them. */
export interface ViewInfo {
  name: string;
  description: string;
  /** A function view (@api_view): HEAD is not among its methods. */
  functionView?: boolean;
}

const AGENT_DOC = 'ViewSet for managing BrowserUseAgents.';
const TASK_DOC = 'ViewSet for managing BrowserUseAgentTasks.\nSupports both agent-specific and user-wide task operations.';

/**
 * api/views.py's views by path: the router's list and detail routes add the suffix List or
 * Instance, its @action routes the action's pretty name (decorators.py action); the task routes
 * (as_view in api/urls.py) neither. PersistentAgentViewSet has no docstring: its description is ''.
 */
export function viewInfo(path: string): ViewInfo {
  if (path === '/ping/') return { name: 'Ping', description: 'Test API connectivity with a simple ping endpoint', functionView: true };
  if (path.includes('/tasks/')) return { name: 'Browser Use Agent Task', description: TASK_DOC };
  if (path.startsWith('/agents/browser-use/')) return { name: `Browser Use Agent ${path === '/agents/browser-use/' ? 'List' : 'Instance'}`, description: AGENT_DOC };
  const action = /^\/agents\/[^/]+\/(.+)\/$/.exec(path)?.[1];
  const name = path === '/agents/' ? 'Persistent Agent List' : action === undefined ? 'Persistent Agent Instance' : actionName(action);
  return { name, description: '' };
}

/** django.forms.utils.pretty_name of the action function behind each url_path. */
function actionName(urlPath: string): string {
  const names: Record<string, string> = { messages: 'Create message', 'schedule/preview': 'Schedule preview' };
  const name = names[urlPath] ?? urlPath.replace(/-/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

const DJANGO_METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/**
 * APIView.allowed_methods (Django's View._allowed_methods): the view's methods in Django's order,
 * HEAD wherever GET is (ViewSetMixin.as_view maps it), OPTIONS always. A function view's order is
 * that of a Python set (@api_view), so it may differ between the service's processes.
 */
export function allowedMethods(methods: string[], view: ViewInfo): string[] {
  const all = new Set([...methods, 'OPTIONS']);
  if (all.has('GET') && !view.functionView) all.add('HEAD');
  return DJANGO_METHOD_ORDER.filter((method) => all.has(method));
}

/** SimpleMetadata.determine_metadata without `actions` (the serializers' field descriptions). */
export function optionsMetadata(view: ViewInfo): Record<string, unknown> {
  return {
    name: view.name,
    description: view.description,
    renders: RENDERERS.map((renderer) => renderer.media),
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  };
}

/** The browsable API's place: a small HTML page showing the JSON answer (the service renders DRF's full template). */
export function browsablePage(view: ViewInfo, status: number, json: string): string {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
  return `<!DOCTYPE html><html><head><title>${escape(view.name)}</title></head><body><h1>${escape(view.name)}</h1><p>HTTP ${status}</p><pre>${escape(json)}</pre></body></html>`;
}
