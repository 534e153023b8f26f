// Faults on demand: the failures a real deployment shows (errors, throttling, resets, slowness,
// outages), injected by a small grammar so a user's scripts can be tested against them. Every
// random choice comes from one seeded generator: the same spec, seed and requests give the same
// faults. Grammar (docs/emulator-library.md):
//
//   SPEC  := RULE (';' RULE)*
//   RULE  := [SCOPE '=>'] FAULT (',' FAULT)*
//   SCOPE := [METHOD] PATH          PATH below /api/v1, `*` matches anything: "POST /tasks/*"
//   FAULT := 500@RATE | 502@RATE | 503@RATE | 429@RATE['/'SECONDS]    an error answer (429 with Retry-After)
//          | reset@RATE                                                the connection is cut, no answer
//          | latency=DURATION                                          added before every answer
//          | slow=DURATION                                             the body trickles out over DURATION
//          | outage=DURATION-DURATION                                  503 from .. to (since the emulator started)
//   RATE  := N% | 0..1            DURATION := N[ms|s|m] (ms when bare), at most 24 h

export type FaultStatus = 500 | 502 | 503 | 429;

export type Fault =
  | { kind: 'status'; status: FaultStatus; rate: number; retryAfter?: number }
  | { kind: 'reset'; rate: number }
  | { kind: 'latency'; ms: number }
  | { kind: 'slow'; ms: number }
  | { kind: 'outage'; fromMs: number; toMs: number };

export interface FaultRule {
  method?: string;
  /** The path pattern as written (`*` = anything), undefined for every route. */
  path?: string;
  faults: Fault[];
}

/** What to do to one request. */
export interface FaultDecision {
  latencyMs: number;
  slowMs: number;
  reset: boolean;
  /** An error answer instead of the route's, and why (for the log). */
  status?: FaultStatus;
  retryAfter?: number;
  outage?: boolean;
}

export class FaultSpecError extends Error {}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Parses a SPEC; throws FaultSpecError naming the part it cannot read. */
export function parseFaults(spec: string): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const part of spec.split(';').map((text) => text.trim())) {
    if (part === '') continue;
    const arrow = part.indexOf('=>');
    const rule: FaultRule = { faults: [] };
    if (arrow >= 0) Object.assign(rule, parseScope(part.slice(0, arrow).trim()));
    const faults = arrow >= 0 ? part.slice(arrow + 2) : part;
    for (const text of faults.split(',').map((item) => item.trim())) {
      if (text !== '') rule.faults.push(parseFault(text));
    }
    if (rule.faults.length === 0) throw new FaultSpecError(`"${part}" names no fault`);
    rules.push(rule);
  }
  return rules;
}

function parseScope(text: string): { method?: string; path?: string } {
  const match = /^(?:([A-Za-z]+)\s+)?(\/\S*)$/.exec(text) ?? /^([A-Za-z]+)$/.exec(text);
  if (!match || (match[1] !== undefined && !METHODS.includes(match[1].toUpperCase()))) throw new FaultSpecError(`"${text}" is not a scope: write [METHOD] /path/ (with * for anything), e.g. "POST /tasks/*"`);
  return { method: match[1]?.toUpperCase(), path: match[2] };
}

function parseFault(text: string): Fault {
  const status = /^(500|502|503|429)@([^/]+)(?:\/(\d+)s?)?$/.exec(text);
  if (status) {
    const fault: Fault = { kind: 'status', status: Number(status[1]) as FaultStatus, rate: parseRate(status[2] as string, text) };
    if (status[3] !== undefined) {
      if (fault.status !== 429) throw new FaultSpecError(`"${text}": only 429 takes a Retry-After (429@RATE/SECONDS)`);
      fault.retryAfter = Number(status[3]);
    }
    return fault;
  }
  const reset = /^reset@(.+)$/.exec(text);
  if (reset) return { kind: 'reset', rate: parseRate(reset[1] as string, text) };
  const timed = /^(latency|slow)=(.+)$/.exec(text);
  if (timed) return { kind: timed[1] as 'latency' | 'slow', ms: parseDuration(timed[2] as string, text) };
  const outage = /^outage=([^-]+)-(.+)$/.exec(text);
  if (outage) {
    const fromMs = parseDuration(outage[1] as string, text);
    const toMs = parseDuration(outage[2] as string, text);
    if (toMs <= fromMs) throw new FaultSpecError(`"${text}": the outage must end after it starts`);
    return { kind: 'outage', fromMs, toMs };
  }
  throw new FaultSpecError(`"${text}" is not a fault: use 500@RATE, 502@RATE, 503@RATE, 429@RATE[/SECONDS], reset@RATE, latency=MS, slow=MS or outage=FROM-TO`);
}

function parseRate(text: string, fault: string): number {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  const rate = percent ? Number(percent[1]) / 100 : /^(0(?:\.\d+)?|1(?:\.0+)?)$/.test(text) ? Number(text) : NaN;
  if (!(rate >= 0 && rate <= 1)) throw new FaultSpecError(`"${fault}": the rate must be a percentage (10%) or a fraction from 0 to 1`);
  return rate;
}

/** The longest fault duration: a day is more than any test waits, and well below a timer's 2^31-1 ms limit. */
export const MAX_FAULT_DURATION_MS = 24 * 3600 * 1000;

function parseDuration(text: string, fault: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new FaultSpecError(`"${fault}": "${text}" is not a duration (e.g. 200ms, 2s, 1m)`);
  const ms = Math.round(Number(match[1]) * (match[2] === 'm' ? 60_000 : match[2] === 's' ? 1000 : 1));
  // Node turns a longer timer into 1 ms (with a warning): the delay would vanish instead of lasting.
  if (ms > MAX_FAULT_DURATION_MS) throw new FaultSpecError(`"${fault}": "${text}" is longer than the most a fault lasts, 24 h (1440m)`);
  return ms;
}

/** A small seeded generator (mulberry32): deterministic, good enough to pick faults. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The faults in force and the generator that draws them; replaced as a whole at run time. */
export class Faults {
  private rules: FaultRule[] = [];
  private spec = '';
  private random: () => number;

  constructor(
    spec = '',
    private seed = 1,
  ) {
    this.random = seededRandom(seed);
    this.set(spec);
  }

  /** Replaces the faults (and restarts the generator, so a run is repeatable from here). */
  set(spec: string, seed = this.seed): void {
    this.rules = parseFaults(spec);
    this.spec = spec.trim();
    this.seed = seed;
    this.random = seededRandom(seed);
  }

  describe(): { spec: string; seed: number; rules: FaultRule[] } {
    return { spec: this.spec, seed: this.seed, rules: this.rules };
  }

  /** What happens to a request of `method` to `path` (below the base path) `sinceStartMs` after start. */
  decide(method: string, path: string, sinceStartMs: number): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, slowMs: 0, reset: false };
    for (const rule of this.rules) {
      if (rule.method !== undefined && rule.method !== method) continue;
      if (rule.path !== undefined && !globMatch(rule.path, path)) continue;
      for (const fault of rule.faults) {
        if (fault.kind === 'latency') decision.latencyMs += fault.ms;
        else if (fault.kind === 'slow') decision.slowMs = Math.max(decision.slowMs, fault.ms);
        else if (fault.kind === 'outage') {
          if (decision.status === undefined && sinceStartMs >= fault.fromMs && sinceStartMs < fault.toMs) Object.assign(decision, { status: 503, outage: true });
        } else if (fault.rate > 0 && !decision.reset && decision.status === undefined) {
          // One draw per fault that could still apply, so each rule's rate holds on its own.
          if (this.random() >= fault.rate) continue;
          if (fault.kind === 'reset') decision.reset = true;
          else Object.assign(decision, { status: fault.status, retryAfter: fault.retryAfter });
        }
      }
    }
    return decision;
  }
}

function globMatch(pattern: string, path: string): boolean {
  const regex = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return regex.test(path) || regex.test(`${path}/`);
}
