// Compares an expected answer (recorded from a deployment) with an actual one (the emulator's, or a
// deployment's) and names each difference by a rule of rules.ts. Values that differ by nature
// between two services (ids, times, counts) are compared by type and format only; ids are compared
// through the map the caller learnt (recorded id -> replayed id), so a list's order and a page link
// can be judged across the two.
import { isUuid } from '../contract/ids.js';
import { knownDifferenceFor, type RuleId } from './rules.js';

export interface Answer {
  readonly status: number;
  /** Parsed JSON, or the text of a body that is not JSON; undefined for an empty body. */
  readonly body: unknown;
}

export interface Difference {
  readonly rule: RuleId;
  /** Where in the body (`results[2].created_at`), '' for the answer itself. */
  readonly path: string;
  /** What each side had, shortened (hostile text: escape it before showing it). */
  readonly expected: string;
  readonly actual: string;
}

export interface CompareContext {
  readonly method: string;
  /** The request's body, when it had one: a create's fields the request set are not defaults. */
  readonly requestBody?: unknown;
  /** Recorded id -> the other side's id for the same record. */
  readonly ids?: ReadonlyMap<string, string>;
  /** The base URL each side's page links start with, so only what follows it is compared. */
  readonly bases?: { readonly expected: string; readonly actual: string };
}

/** Every difference between the two answers, by rule; none when they agree. */
export function compareAnswers(expected: Answer, actual: Answer, context: CompareContext): Difference[] {
  if (expected.status !== actual.status) return [{ rule: 'status', path: '', expected: String(expected.status), actual: String(actual.status) }];
  const walk = new Walk(context);
  if (expected.status >= 400) walk.errorBody(expected.body, actual.body, '');
  else walk.value(expected.body, actual.body, '', isCreate(context, expected.status));
  return walk.found;
}

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'text' | 'empty';

/** A body that is not JSON (an HTML page) is `text`: typeof cannot tell it from a JSON string at the top. */
function kindOf(value: unknown, top: boolean): Kind {
  if (value === undefined) return 'empty';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (top && typeof value === 'string') return 'text';
  return typeof value as Kind;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;
const DECIMAL = /^-?\d+\.(\d+)$/;

/**
 * A string's format. A timestamp's precision is its fraction's digits, with none the same as six:
 * Python's isoformat() leaves out microseconds that are zero.
 */
export function formatOf(text: string): string {
  if (isUuid(text)) return 'uuid';
  const time = TIMESTAMP.exec(text);
  if (time) {
    const digits = time[1]?.length ?? 6;
    return `timestamp (${digits === 6 ? 'microseconds' : `${digits} fraction digits`}, ${time[2] === 'Z' ? 'Z' : 'offset'})`;
  }
  const decimal = DECIMAL.exec(text);
  if (decimal) return `decimal (${decimal[1]?.length} places)`;
  if (/^https?:\/\//.test(text)) return 'url';
  return 'text';
}

class Walk {
  readonly found: Difference[] = [];
  constructor(private readonly context: CompareContext) {}

  value(expected: unknown, actual: unknown, path: string, create = false): void {
    const [want, have] = [kindOf(expected, path === ''), kindOf(actual, path === '')];
    if (want !== have) return this.add('field-type', path, want, have);
    if (want === 'object') return this.object(expected as Record<string, unknown>, actual as Record<string, unknown>, path, create);
    if (want === 'array') return this.array(expected as unknown[], actual as unknown[], path);
    if (want === 'string') {
      const [a, b] = [formatOf(expected as string), formatOf(actual as string)];
      if (a !== b) return this.add('field-format', path, a, b);
    }
    if (create && path !== '' && !path.includes('.') && expected !== actual && isSettledValue(expected)) this.add('default', path, shown(expected), shown(actual));
  }

  /**
   * A record whose `status` differs on the two sides is the same record at another moment of its
   * life (a task still running there, ended here: the replay's clock is not the service's worker):
   * its fields are compared by name only, as a running task's `completed_at` is null.
   */
  private object(expected: Record<string, unknown>, actual: Record<string, unknown>, path: string, create: boolean): void {
    const page = isPage(expected) && isPage(actual);
    const elsewhenInLife = typeof expected.status === 'string' && typeof actual.status === 'string' && expected.status !== actual.status;
    for (const key of Object.keys(expected)) {
      const at = join(path, key);
      if (!Object.hasOwn(actual, key)) this.add('field-missing', at, shown(expected[key]), NONE);
      else if (page && (key === 'next' || key === 'previous')) this.pageLink(expected[key], actual[key], at);
      else if (elsewhenInLife && !(create && key === 'status' && path === '')) continue;
      else this.value(expected[key], actual[key], at, create && path === '' && !setByRequest(this.context.requestBody, key));
    }
    for (const key of Object.keys(actual)) if (!Object.hasOwn(expected, key)) this.add('field-extra', join(path, key), NONE, shown(actual[key]));
  }

  /**
   * Items are paired by id where they have one, else by position. An item of a record the replay
   * never made (one that existed before the recording) is left out; one it made must be on both sides.
   */
  private array(expected: unknown[], actual: unknown[], path: string): void {
    const ids = this.context.ids ?? new Map<string, string>();
    if (expected.length > 0 && expected.every((item) => idOf(item) !== undefined) && actual.every((item) => idOf(item) !== undefined)) {
      const position = new Map(actual.map((item, j) => [idOf(item) as string, j]));
      const made = new Set(ids.values());
      const paired: Array<[number, number]> = [];
      expected.forEach((item, i) => {
        const id = ids.get(idOf(item) as string);
        if (id === undefined) return;
        const j = position.get(id);
        if (j === undefined) this.add('field-missing', `${path}[${i}]`, shown(item), NONE);
        else paired.push([i, j]);
      });
      const inOrder = [...paired].sort((a, b) => a[1] - b[1]);
      if (inOrder.some(([i], k) => i !== paired[k]?.[0])) {
        const name = ([i]: [number, number]) => idOf(expected[i]);
        this.add('ordering', path, paired.map(name).join(', '), inOrder.map(name).join(', '));
      }
      const pairedActual = new Set(paired.map(([, j]) => j));
      actual.forEach((item, j) => {
        if (!pairedActual.has(j) && made.has(idOf(item) as string)) this.add('field-extra', `${path}[${j}]`, NONE, shown(item));
      });
      for (const [i, j] of paired) this.value(expected[i], actual[j], `${path}[${i}]`);
      return;
    }
    const common = Math.min(expected.length, actual.length);
    for (let i = 0; i < common; i++) this.value(expected[i], actual[i], `${path}[${i}]`);
    for (let i = common; i < expected.length; i++) this.add('field-missing', `${path}[${i}]`, shown(expected[i]), NONE);
    for (let i = common; i < actual.length; i++) this.add('field-extra', `${path}[${i}]`, NONE, shown(actual[i]));
  }

  /** A page link: there or null, and the path and query it points at (below each side's base, ids mapped). */
  private pageLink(expected: unknown, actual: unknown, path: string): void {
    if ((expected === null) !== (actual === null) || typeof expected !== typeof actual) return this.add('page-links', path, shown(expected), shown(actual));
    if (typeof expected !== 'string' || typeof actual !== 'string') return;
    const [a, b] = [this.below(expected, 'expected'), this.below(actual, 'actual')];
    if (a !== b) this.add('page-links', path, a, b);
  }

  private below(link: string, side: 'expected' | 'actual'): string {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return link;
    }
    const base = this.context.bases?.[side];
    const basePath = base === undefined ? '' : new URL(base).pathname.replace(/\/$/, '');
    let rest = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) : url.pathname;
    if (side === 'expected') for (const [from, to] of this.context.ids ?? []) rest = rest.replaceAll(from, to);
    return `${rest}${url.search}`;
  }

  /** An error's body: every field and message, ids mapped; two ids of no known record count as the same. */
  errorBody(expected: unknown, actual: unknown, path: string): void {
    const [want, have] = [kindOf(expected, path === ''), kindOf(actual, path === '')];
    if (want === 'text' && have === 'text') return; // two HTML pages: their markup is no contract
    if (want !== have) return this.add('error-text', path, shown(expected), shown(actual));
    if (want === 'object' || want === 'array') {
      const [a, b] = [expected as Record<string, unknown>, actual as Record<string, unknown>];
      for (const key of Object.keys(a)) this.errorBody(a[key], Object.hasOwn(b, key) ? b[key] : undefined, want === 'array' ? `${path}[${key}]` : join(path, key));
      for (const key of Object.keys(b)) if (!Object.hasOwn(a, key)) this.add('error-text', want === 'array' ? `${path}[${key}]` : join(path, key), NONE, shown(b[key]));
      return;
    }
    if (typeof expected === 'string' && typeof actual === 'string' && this.mapIds(expected) !== actual && !sameButIds(expected, actual)) this.add('error-text', path, shown(expected), shown(actual));
    else if (typeof expected !== 'string' && expected !== actual) this.add('error-text', path, shown(expected), shown(actual));
  }

  private mapIds(text: string): string {
    let out = text;
    for (const [from, to] of this.context.ids ?? []) if (out.includes(from)) out = out.replaceAll(from, to);
    return out;
  }

  private add(rule: RuleId, path: string, expected: string, actual: string): void {
    this.found.push({ rule, path, expected, actual });
  }
}

const UUID_ANYWHERE = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

/** The same text once every id is blanked (a 500's error_id, an id of no record either side made). */
function sameButIds(a: string, b: string): boolean {
  return a.replace(UUID_ANYWHERE, '<id>') === b.replace(UUID_ANYWHERE, '<id>');
}

/** A value a default is made of: a boolean, a number, null, a short word; not an id, a time, a URL or prose. */
function isSettledValue(value: unknown): boolean {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return true;
  return typeof value === 'string' && value.length <= 40 && formatOf(value) === 'text';
}

function idOf(item: unknown): string | undefined {
  const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

function isPage(value: Record<string, unknown>): boolean {
  return Object.hasOwn(value, 'next') && Object.hasOwn(value, 'previous') && Array.isArray(value.results);
}

function isCreate(context: CompareContext, status: number): boolean {
  return context.method === 'POST' && status >= 200 && status < 300;
}

function setByRequest(body: unknown, key: string): boolean {
  return typeof body === 'object' && body !== null && Object.hasOwn(body, key);
}

function join(path: string, key: string): string {
  const name = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  return path === '' ? name : `${path}.${name}`;
}

const SHOWN = 120;
const NONE = '(none)';

/** A side's value as the report shows it: JSON, shortened; `(none)` for a side that lacks it. */
export function shown(value: unknown): string {
  if (value === undefined) return NONE;
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

export interface JudgedDifference extends Difference {
  /** The id of the emulator's documented difference this one is (rules.ts KNOWN_DIFFERENCES), if it is one. */
  readonly known?: string;
}

/** The differences of one exchange, each marked with the known difference it is, if any. */
export function judge(differences: readonly Difference[], method: string, path: string): JudgedDifference[] {
  return differences.map((found) => {
    const known = knownDifferenceFor(found.rule, method, path, found.path);
    return known === undefined ? found : { ...found, known: known.id };
  });
}
