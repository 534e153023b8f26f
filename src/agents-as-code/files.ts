// The file format of agents as code: one Markdown file per persistent agent, YAML front matter for
// its settings and the body for its charter. Pure text in, text out (no disk, no service), so
// `plan`, `apply`, `export` and the portable-export reader all read and write the one format.
//
//   ---
//   name: Price watcher
//   schedule: "@daily"
//   active: true
//   ---
//   Track the price of the Oslo-Rome flight and write when it drops.
//
// A field left out of the front matter is not managed: plan never compares it and apply never sends
// it (the service keeps its value). `export` writes every field, so an exported file pins them all.
import { LineCounter, parseDocument, isMap, isScalar, stringify, type Node } from 'yaml';
import { CONTACT_APPROVAL_MODES, WHITELIST_POLICIES } from '../contract/enums.js';
import { LIMITS } from '../contract/limits.js';
import { isUuid } from '../contract/ids.js';
import { InputError } from '../errors.js';
import { checkScheduleExpression } from '../core/persistent-fields.js';
import { pyStrip } from '../schedule/py.js';

/** What one file says about its agent. Optional fields are managed only when present. */
export interface AgentSpec {
  name: string;
  /** The body of the file, stripped as the service strips it. */
  charter: string;
  schedule?: string | null;
  active?: boolean;
  whitelist_policy?: (typeof WHITELIST_POLICIES)[number];
  contact_approval_mode?: (typeof CONTACT_APPROVAL_MODES)[number];
  /** An intelligence tier's key (standard, premium, ...); left out, the owner's default tier on create. */
  preferred_llm_tier?: string;
  daily_credit_limit?: number | null;
  /** email, sms or a contact endpoint UUID (lower case); null: none. */
  preferred_contact?: string | null;
  proactive?: boolean;
}

/** The front matter's fields, in the order a written file lists them. */
export const SPEC_FIELDS = [
  'name',
  'schedule',
  'active',
  'whitelist_policy',
  'contact_approval_mode',
  'preferred_llm_tier',
  'daily_credit_limit',
  'preferred_contact',
  'proactive',
] as const satisfies ReadonlyArray<Exclude<keyof AgentSpec, 'charter'>>;
export type SpecField = (typeof SPEC_FIELDS)[number];

/** The service's PositiveIntegerField bound. */
const MAX_CREDIT_LIMIT = 2147483647;
/** An agent file larger than this is refused before it is parsed (a charter is text, not a data set). */
export const MAX_AGENT_FILE_BYTES = 1024 * 1024;
/** YAML aliases a front matter may expand (a "billion laughs" file expands into memory otherwise). */
const MAX_ALIASES = 50;

/** A file refused: which file, which line (1-based), which field ('front matter' for the YAML itself). */
export class AgentFileError extends InputError {
  constructor(
    readonly file: string,
    readonly line: number,
    field: string,
    problem: string,
  ) {
    super(field, problem);
    this.name = 'AgentFileError';
    this.message = `${file}:${line}: ${field}: ${problem}`;
  }
}

const FENCE = /^---[ \t]*\r?$/;

/** Reads one agent file; `file` names it in errors. Throws AgentFileError. */
export function parseAgentFile(text: string, file: string): AgentSpec {
  const { front, charter } = splitFile(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file);
  const fields = plainFrontMatter(front) ?? readFrontMatter(front.join('\n'), file);
  const spec = checkFields(fields, file);
  spec.charter = pyStrip(charter);
  return spec;
}

/** The front matter's lines and the text after its closing fence (the charter, not split into lines). */
function splitFile(text: string, file: string): { front: string[]; charter: string } {
  let end = text.indexOf('\n');
  if (!FENCE.test(end < 0 ? text : text.slice(0, end))) {
    throw new AgentFileError(file, 1, 'front matter', 'the file must start with a "---" line, then the YAML front matter, then "---" and the charter');
  }
  const front: string[] = [];
  while (end >= 0) {
    const start = end + 1;
    end = text.indexOf('\n', start);
    const line = end < 0 ? text.slice(start) : text.slice(start, end);
    if (FENCE.test(line)) return { front, charter: end < 0 ? '' : text.slice(end + 1) };
    front.push(line);
  }
  throw new AgentFileError(file, 1, 'front matter', 'has no closing "---" line');
}

interface FieldAt {
  value: unknown;
  line: number;
}

// The front matter most files have, read without the YAML library (which costs ~1 ms a file, most of
// a 1,000-agent plan): `key: value` lines whose value is one of the forms below, read as YAML reads
// them. Anything else (a comment, a quote with an escape, a value YAML would read as another type,
// a repeated key) goes to the library, which then decides (and words any error).
const PLAIN_LINE = /^([a-z_]+):(?:[ \t]+(.*?))?[ \t]*\r?$/;
const DOUBLE = /^"([^"\\]*)"$/;
const SINGLE = /^'([^']*)'$/;
const INTEGER = /^(?:0|[1-9][0-9]{0,8})$/;
/** Plain text YAML reads as text: no indicator first, no `: ` or ` #` inside, nothing that looks like a number, bool or null. */
// eslint-disable-next-line no-control-regex -- control characters are what the class keeps out
const PLAIN_TEXT = /^(?![-?:,[\]{}#&*!|>'"%@`~.+0-9]|(?:true|false|null|yes|no|on|off|y|n)$)(?!.*(?::\s|\s#))[^\t\x00-\x1f\x7f]*$/i;

function plainFrontMatter(lines: string[]): Map<string, FieldAt> | undefined {
  const fields = new Map<string, FieldAt>();
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const match = PLAIN_LINE.exec(line);
    if (!match || fields.has(match[1]!)) return undefined;
    const value = plainValue(match[2] ?? '');
    if (value === undefined) return undefined;
    fields.set(match[1]!, { value: value.value, line: index + 2 });
  }
  return fields;
}

function plainValue(text: string): { value: unknown } | undefined {
  if (text === '' || text === 'null') return { value: null };
  if (text === 'true' || text === 'false') return { value: text === 'true' };
  if (INTEGER.test(text)) return { value: Number(text) };
  const quoted = DOUBLE.exec(text) ?? SINGLE.exec(text);
  if (quoted) return { value: quoted[1] };
  if (PLAIN_TEXT.test(text)) return { value: text };
  return undefined;
}

/** The front matter's keys with their values and lines (numbered as in the file: the YAML starts on line 2). */
function readFrontMatter(yaml: string, file: string): Map<string, FieldAt> {
  const counter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: counter, uniqueKeys: true, prettyErrors: false, strict: true });
  const lineOf = (offset: number | undefined) => (offset === undefined ? 1 : counter.linePos(offset).line + 1);
  const error = doc.errors[0];
  if (error) {
    const hint = /reserved character @/.test(error.message) ? ' (quote a value that starts with @: schedule: "@daily")' : '';
    throw new AgentFileError(file, lineOf(error.pos[0]), 'front matter', `is not valid YAML: ${firstLine(error.message)}${hint}`);
  }
  const fields = new Map<string, FieldAt>();
  if (doc.contents === null) return fields;
  if (!isMap(doc.contents)) throw new AgentFileError(file, 2, 'front matter', 'must be a mapping of field: value lines');
  for (const pair of doc.contents.items) {
    const key = pair.key as Node | null;
    const name = isScalar(key) ? String(key.value) : '';
    const line = lineOf(key?.range?.[0]);
    if (!(SPEC_FIELDS as readonly string[]).includes(name)) {
      const known = SPEC_FIELDS.join(', ');
      throw new AgentFileError(file, line, name || 'front matter', `is not a field of an agent file (the fields: ${known}; the charter is the text after the front matter)`);
    }
    const value = pair.value as Node | null;
    if (value !== null && !isScalar(value)) throw new AgentFileError(file, line, name, 'must be a single value, not a list or mapping');
    let plain: unknown;
    try {
      plain = value === null ? null : value.toJS(doc, { maxAliasCount: MAX_ALIASES });
    } catch (cause) {
      throw new AgentFileError(file, line, name, firstLine((cause as Error).message));
    }
    fields.set(name, { value: plain, line });
  }
  return fields;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** Each field checked as the service would check it, so a mistake is found before any request. */
function checkFields(fields: Map<string, FieldAt>, file: string): AgentSpec {
  const at = (name: string) => fields.get(name);
  const fail = (name: string, problem: string): never => {
    throw new AgentFileError(file, at(name)?.line ?? 2, name, problem);
  };
  const name = at('name');
  if (name === undefined) fail('name', 'is required (the name the agent has on the service)');
  const spec: AgentSpec = { name: checkText(name!.value, 'name', fail), charter: '' };
  for (const [field, { value }] of fields) {
    if (field === 'name') continue;
    (spec as unknown as Record<string, unknown>)[field] = checkField(field as SpecField, value, (problem) => fail(field, problem));
  }
  return spec;
}

function checkText(value: unknown, field: string, fail: (field: string, problem: string) => never): string {
  if (typeof value !== 'string' && typeof value !== 'number') return fail(field, 'must be text');
  const text = pyStrip(String(value));
  if (text === '') return fail(field, 'must not be empty');
  // Characters, as the service counts them: a length in UTF-16 units over the limit may still be within it.
  const length = text.length > LIMITS.persistentAgentName ? [...text].length : text.length;
  if (length > LIMITS.persistentAgentName) return fail(field, `is ${length} characters long; the limit is ${LIMITS.persistentAgentName}`);
  return text;
}

type Fail = (problem: string) => never;

function checkField(field: SpecField, value: unknown, fail: Fail): unknown {
  switch (field) {
    case 'schedule':
      if (value === null) return null;
      if (typeof value !== 'string') return fail('must be a schedule in quotes ("@daily", "0 9 * * mon-fri") or null');
      try {
        return checkScheduleExpression(value);
      } catch (error) {
        if (error instanceof InputError) return fail(error.problem);
        throw error;
      }
    case 'active':
    case 'proactive':
      if (typeof value !== 'boolean') return fail('must be true or false');
      return value;
    case 'whitelist_policy':
      return oneOf(value, WHITELIST_POLICIES, fail);
    case 'contact_approval_mode':
      return oneOf(value, CONTACT_APPROVAL_MODES, fail);
    case 'preferred_llm_tier':
      if (typeof value !== 'string' || !/^[a-z0-9_-]{1,64}$/i.test(value)) return fail('must be a tier key (standard, premium, max, ...); leave it out for the default tier');
      return value;
    case 'daily_credit_limit':
      if (value === null) return null;
      if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_CREDIT_LIMIT) {
        return fail(`must be a whole number from 0 to ${MAX_CREDIT_LIMIT}, or null for no limit`);
      }
      return value;
    case 'preferred_contact':
      if (value === null) return null;
      if (typeof value === 'string' && (/^(email|sms)$/i.test(value.trim()) || isUuid(value.trim()))) return value.trim().toLowerCase();
      return fail('must be email, sms, a contact endpoint UUID, or null');
    default:
      return fail('is not a field of an agent file');
  }
}

function oneOf<T extends string>(value: unknown, choices: readonly T[], fail: Fail): T {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  return fail(`must be one of ${choices.join(', ')}`);
}

/** The text of an agent file: front matter with the fields the spec holds (in SPEC_FIELDS order), then the charter. */
export function serializeAgentFile(spec: AgentSpec): string {
  const front: Record<string, unknown> = {};
  for (const field of SPEC_FIELDS) if (spec[field] !== undefined) front[field] = spec[field];
  // Plain keys, quoted strings where YAML needs them ("@daily", "yes", "0 9 * * *" stays plain), no folding.
  const yaml = stringify(front, { lineWidth: 0, defaultStringType: 'PLAIN', defaultKeyType: 'PLAIN' });
  const charter = pyStrip(spec.charter);
  return `---\n${yaml}---\n${charter === '' ? '' : `${charter}\n`}`;
}

/** Windows' reserved device names, refused as file names whatever their extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
/** Longest file name stem written (bytes of the name stay well under 255 with the suffix and a counter). */
const MAX_STEM = 80;

/**
 * A file name for an agent's name, safe on every filesystem: letters, digits, `-` and `_` only
 * (so no path separator, `..`, control or bidi character of a hostile name reaches the disk), lower
 * case, at most 80 characters, never empty or reserved. Two names may give one stem: the caller
 * makes it unique (uniqueFileName).
 */
export function fileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, MAX_STEM)
    .replace(/[-_]+$/, '');
  if (stem === '' || RESERVED.test(stem)) return stem === '' ? 'agent' : `agent-${stem}`;
  return stem;
}

/** `<stem>.md`, or `<stem>-2.md`, `-3`... when `taken` (compared in lower case) already holds it. */
export function uniqueFileName(name: string, taken: Set<string>): string {
  const stem = fileStem(name);
  for (let count = 1; ; count++) {
    const candidate = count === 1 ? `${stem}.md` : `${stem}-${count}.md`;
    if (!taken.has(candidate.toLowerCase())) {
      taken.add(candidate.toLowerCase());
      return candidate;
    }
  }
}
