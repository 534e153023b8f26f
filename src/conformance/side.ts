import { ApiError } from '../api/errors.js';
import type { ApiClient, HttpMethod } from '../api/client.js';
import { schemaOf, type Shape } from '../api/schemas/shapes.js';
import { pathSegment } from '../api/url.js';

// One side of a conformance run: the deployment or the fresh emulator. An operation sends its
// requests through a side, which keeps each request and answer (an exchange) for the comparison,
// the ids it created by role ({agent}, {task}), and every record it created for the cleanup.

/** What a create makes, as the cap counts it and the cleanup removes it. */
export type RecordKind = 'legacy-agent' | 'persistent-agent' | 'task';

/** A record a run created and has not yet seen deleted. */
export interface CreatedRecord {
  kind: RecordKind;
  id: string;
  /** A task created below an agent: its agent's id. */
  agentId?: string;
}

/** One request and its answer, as the report and the comparison see it. */
export interface Exchange {
  method: HttpMethod;
  /** The path as the operation names it: `{agent}`, `{task}` in place of ids (the same on both sides). */
  template: string;
  /** The path sent, below the base URL. */
  path: string;
  query?: Record<string, string>;
  /** The request's body, when it had one. */
  sent?: unknown;
  status: number;
  body: unknown;
  /** The status the service's code answers here (docs/service-behaviour.md). */
  expected: number;
  /** Whether agentctl's schema for this answer takes it; undefined when none applies. */
  accepted?: boolean;
}

export interface SendOptions {
  body?: unknown;
  query?: Record<string, string>;
  /** The status the service's code answers (a 4xx for bad input, refused before any create). */
  expect: number;
  /** agentctl's schema for a successful answer. */
  shape?: Shape<unknown>;
  /** This request creates a record of this kind: the cap counts it, the cleanup removes it. */
  creates?: RecordKind;
  /** The role the created record's id is kept under (`agent`, `task`), for the next steps' paths. */
  as?: string;
  /** A task's agent, for the cleanup of a task created below it. */
  agentRole?: string;
  /** This request deletes the record of this role (its cleanup is then done). */
  deletes?: string;
  /**
   * Bad input the service should refuse: should it take it after all, what it made is this kind of
   * record, removed by the cleanup like any other (read-only runs too). Not counted by the cap.
   */
  refusedCreate?: RecordKind;
}

/** A create past the cap: refused before it is sent. */
export class CapReachedError extends Error {}

/** The creates one run may send, counted on the deployment's side only. */
export class CreateCap {
  private used = 0;
  constructor(readonly limit: number) {}

  take(kind: RecordKind): void {
    if (this.used >= this.limit) throw new CapReachedError(`the cap of ${this.limit} creates is reached; a ${kind} create was not sent`);
    this.used++;
  }

  get count(): number {
    return this.used;
  }
}

/** A step needs an id no earlier step made (its create failed or was skipped). */
export class MissingRoleError extends Error {}

export class Side {
  readonly ids = new Map<string, string>();
  /** Records created and not yet seen deleted, oldest first. */
  readonly created: CreatedRecord[] = [];
  private log: Exchange[] = [];

  constructor(
    readonly name: 'service' | 'emulator',
    readonly client: ApiClient,
    private readonly cap: CreateCap | undefined,
    private readonly signal?: AbortSignal,
  ) {}

  /** The exchanges since the last call (one operation's). */
  takeExchanges(): Exchange[] {
    return this.log.splice(0);
  }

  /** The path of a template, its `{role}` parts replaced by the ids this side holds. */
  fill(template: string): string {
    return template.replace(/\{(\w+)\}/g, (_, role: string) => {
      const id = this.ids.get(role);
      if (id === undefined) throw new MissingRoleError(`needs {${role}}, which no earlier step made`);
      return pathSegment(id);
    });
  }

  async send(method: HttpMethod, template: string, options: SendOptions): Promise<Exchange> {
    const path = this.fill(template);
    if (options.creates) this.cap?.take(options.creates);
    let status: number;
    let body: unknown;
    try {
      const answer = await this.client.request<unknown>(method, path, { body: options.body, query: options.query, signal: this.signal });
      ({ status, data: body } = answer);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ({ status, body } = error);
    }
    const exchange: Exchange = { method, template, path, query: options.query, sent: options.body, status, body, expected: options.expect };
    if (options.shape && status < 300) exchange.accepted = await accepts(options.shape, body);
    this.log.push(exchange);
    this.note(options, status, body);
    return exchange;
  }

  /** Keeps what a create made (for the next steps and the cleanup) and forgets what a delete removed. */
  private note(options: SendOptions, status: number, body: unknown): void {
    const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
    if (options.creates && status < 300 && typeof id === 'string') {
      const agentId = options.agentRole === undefined ? undefined : this.ids.get(options.agentRole);
      this.created.push({ kind: options.creates, id, agentId });
      if (options.as) this.ids.set(options.as, id);
    }
    if (options.refusedCreate && status < 300 && typeof id === 'string') this.created.push({ kind: options.refusedCreate, id });
    if (options.deletes && (status < 300 || status === 404)) this.forget(this.ids.get(options.deletes));
  }

  /** The record is gone (deleted by a step or by the cleanup). */
  forget(id: string | undefined): void {
    const index = this.created.findIndex((record) => record.id === id);
    if (index !== -1) this.created.splice(index, 1);
  }
}

/** Whether agentctl's schema for a response takes the body (the generated predicate, or zod where there is none). */
async function accepts(shape: Shape<unknown>, body: unknown): Promise<boolean> {
  if (shape.accept !== null) return shape.accept(body);
  return (await schemaOf(shape)).safeParse(body).success;
}
