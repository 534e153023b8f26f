import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

// The contract the conformance suite checks, derived here from the service's published OpenAPI
// document (docs/openapi/GobiiAPI.yaml, a copy with its licence) at test time, with the parts the service's code
// overrides (docs/service-behaviour.md) written down below, each with its reason.

type Json = Record<string, unknown>;
export type Schema = Json | boolean;

const DOCUMENT_URL = new URL('../../docs/openapi/GobiiAPI.yaml', import.meta.url);
export const document = parse(readFileSync(DOCUMENT_URL, 'utf8')) as {
  info: { title: string; version: string };
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: Json }> }> }>>;
  components: { schemas: Record<string, Json> };
};

export interface Operation {
  operationId: string;
  method: string;
  path: string;
}

/** The document's 36 operations. */
export const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ operationId: operation.operationId, method: method.toUpperCase(), path })),
);

/**
 * OpenAPI 3.0 schema -> JSON Schema (draft-07): `$ref`s point into `definitions`, `nullable: true`
 * admits null (in `type`, in `enum`, or around `allOf`/`$ref`), `writeOnly` properties are dropped
 * from responses (the service never sends them), and `example` (not a JSON Schema keyword) goes.
 * `strict` closes objects that list properties (additionalProperties false) so an unexpected key fails.
 */
export function toJsonSchema(schema: unknown, strict: boolean): Schema {
  if (typeof schema !== 'object' || schema === null) return schema as Schema;
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, strict)) as unknown as Schema;
  const source = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example' || key.startsWith('x-')) continue;
    if (key === '$ref') out.$ref = String(value).replace('#/components/schemas/', '#/definitions/');
    else if (key === 'properties') {
      const properties = Object.entries(value as Record<string, Json>).filter(([, property]) => property.writeOnly !== true);
      out.properties = Object.fromEntries(properties.map(([name, property]) => [name, toJsonSchema(property, strict)]));
    } else if (key === 'required') {
      const writeOnly = new Set(Object.entries((source.properties ?? {}) as Record<string, Json>).filter(([, p]) => p.writeOnly === true).map(([name]) => name));
      out.required = (value as string[]).filter((name) => !writeOnly.has(name));
    } else if (key === 'description' || key === 'title') continue;
    else out[key] = typeof value === 'object' ? toJsonSchema(value, strict) : value;
  }
  if (strict && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (source.nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  if (out.type === undefined && out.$ref === undefined && out.allOf === undefined) return out; // no type: anything, null included
  return { anyOf: [out, { type: 'null' }] };
}

/** The document's component schemas as JSON Schema definitions, with the service's overrides applied. */
export function definitions(strict: boolean): Record<string, Schema> {
  const defs: Record<string, Schema> = {};
  for (const [name, schema] of Object.entries(document.components.schemas)) defs[name] = toJsonSchema(schema, strict);
  for (const apply of COMPONENT_OVERRIDES) apply(defs as Record<string, Json>);
  // The synchronous-wait answer of a create: the task record plus its outcome.
  const task = defs.TaskDetail as Json;
  // Its outcome part always names agent_id, null for a standalone task (the record itself leaves it out).
  defs.TaskWaitAnswer = { ...task, properties: { ...(task.properties as Json), agent_id: nullable(uuid), result: {}, wait_error: { type: 'string' } } };
  return { ...defs, ...EXTRA_SCHEMAS(strict) };
}

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const nullable = (schema: Json) => ({ anyOf: [schema, { type: 'null' }] });

/**
 * Where the service's code differs from the document's component schemas (docs/service-behaviour.md,
 * docs/openapi/README.md, issue 11), and why.
 */
export const COMPONENT_OVERRIDES: ((defs: Record<string, Json>) => void)[] = [
  // user_id: the serializer renders the owner's id as a string ("42"), not the integer the document says.
  (defs) => {
    for (const name of ['PersistentAgentDetail', 'PersistentAgentList', 'PatchedPersistentAgentDetail']) {
      (defs[name]!.properties as Json).user_id = { type: ['string', 'integer'], pattern: '^\\d+$' };
    }
  },
  // webhook_last_called_at is null until the first delivery; the document forgets `nullable` (README).
  (defs) => {
    for (const name of ['TaskDetail', 'PatchedTaskDetail']) (defs[name]!.properties as Json).webhook_last_called_at = nullable(dateTime);
  },
  // Browser-use agent names: the model field takes 255 characters; the document says 64 (issue 11).
  (defs) => {
    for (const name of ['AgentDetail', 'AgentList', 'PatchedAgentDetail']) ((defs[name]!.properties as Json).name as Json).maxLength = 255;
  },
  // The persistent agent serializers send fields the document predates: planning (read-only),
  // contact_approval_mode, and in the detail the LLM tier and the daily credit limit (writable).
  (defs) => {
    const planning = {
      planning_state: { type: 'string', enum: ['planning', 'completed', 'skipped'] },
      planning_plan: { type: 'string' },
      planning_completed_at: nullable(dateTime),
      contact_approval_mode: { type: 'string', enum: ['require_approval', 'auto_approve_email'] },
    };
    for (const name of ['PersistentAgentDetail', 'PersistentAgentList', 'PatchedPersistentAgentDetail']) Object.assign(defs[name]!.properties as Json, planning);
    for (const name of ['PersistentAgentDetail', 'PatchedPersistentAgentDetail']) {
      Object.assign(defs[name]!.properties as Json, { preferred_llm_tier: { type: ['string', 'null'] }, daily_credit_limit: { type: ['integer', 'null'], minimum: 0 } });
    }
  },
  // The task serializers send `requires_vision` (a model field the document predates); writable, false by default.
  (defs) => {
    for (const name of ['TaskDetail', 'PatchedTaskDetail', 'TaskList']) (defs[name]!.properties as Json).requires_vision = { type: 'boolean' };
  },
  // The agent serializers also send where the descriptions came from (`*_source`), not in the document.
  (defs) => {
    for (const name of ['AgentDetail', 'AgentList']) {
      Object.assign(defs[name]!.properties as Json, { listing_description_source: { type: 'string' }, mini_description_source: { type: 'string' } });
    }
  },
];

/**
 * Response shapes the document does not describe (it types most persistent-agent actions as a
 * PersistentAgentDetail and the result routes as a TaskDetail); docs/service-behaviour.md gives them.
 */
export function EXTRA_SCHEMAS(strict: boolean): Record<string, Schema> {
  const object = (properties: Json, required: string[], open = !strict): Json => ({ type: 'object', properties, required, additionalProperties: open });
  const webTask = object(
    {
      id: uuid,
      status: { $ref: '#/definitions/StatusEnum' },
      statusLabel: { type: 'string' },
      prompt: { type: 'string' },
      promptPreview: { type: 'string' },
      startedAt: dateTime,
      updatedAt: dateTime,
      elapsedSeconds: { type: 'number', minimum: 0 },
    },
    ['id', 'status', 'statusLabel', 'prompt', 'promptPreview', 'startedAt', 'updatedAt', 'elapsedSeconds'],
  );
  const processing = {
    processing_active: { type: 'boolean' },
    processing_snapshot: object({ active: { type: 'boolean' }, webTasks: { type: 'array', items: webTask }, nextScheduledAt: nullable(dateTime) }, ['active', 'webTasks', 'nextScheduledAt']),
  };
  // Events: {kind, cursor, timestamp, ...} with kind-specific camelCase fields (open: unknown kinds and fields are allowed);
  // a steps cluster has no timestamp of its own (console/agent_chat/timeline.py, _build_cluster).
  const event = object({ kind: { type: 'string' }, cursor: { type: 'string', minLength: 1 }, timestamp: dateTime }, ['kind', 'cursor'], true);
  return {
    TaskResult: {
      oneOf: [
        object({ id: uuid, agent_id: nullable(uuid), status: { const: 'completed' }, result: {}, message: { type: 'string' } }, ['id', 'agent_id', 'status', 'result']),
        object({ id: uuid, agent_id: nullable(uuid), status: { const: 'failed' }, result: { type: 'null' }, error_message: { type: ['string', 'null'] } }, ['id', 'agent_id', 'status', 'result', 'error_message']),
        object({ id: uuid, agent_id: nullable(uuid), status: { enum: ['pending', 'in_progress'] }, message: { type: 'string' } }, ['id', 'agent_id', 'status', 'message']),
        object({ id: uuid, agent_id: nullable(uuid), status: { const: 'cancelled' } }, ['id', 'agent_id', 'status']),
      ],
    },
    PaginatedTaskList: { $ref: '#/definitions/PaginatedTaskListList' },
    Activation: object({ status: { enum: ['activated', 'deactivated'] }, updated: { type: 'boolean' } }, ['status', 'updated']),
    MessageCreated: object({ event: { allOf: [event, { properties: { kind: { const: 'message' }, message: { type: 'object' } }, required: ['message'] }] } }, ['event']),
    ProcessingStatus: object(processing, ['processing_active', 'processing_snapshot']),
    Timeline: object(
      {
        events: { type: 'array', items: event },
        oldest_cursor: { type: ['string', 'null'] },
        newest_cursor: { type: ['string', 'null'] },
        has_more_older: { type: 'boolean' },
        has_more_newer: { type: 'boolean' },
        ...processing,
      },
      ['events', 'oldest_cursor', 'newest_cursor', 'has_more_older', 'has_more_newer', 'processing_active', 'processing_snapshot'],
    ),
    WebTasks: object({ results: { type: 'array', items: { $ref: '#/definitions/TaskList' } }, limit: { type: 'integer', minimum: 1, maximum: 200 } }, ['results', 'limit']),
    SchedulePreview: object({ valid: { type: 'boolean' }, disabled: { type: 'boolean' }, description: { type: ['string', 'null'] } }, ['valid', 'disabled', 'description']),
    // Errors (docs/service-behaviour.md, "Errors"): field errors per field (a list, or per index for list fields).
    FieldErrors: {
      type: 'object',
      minProperties: 1,
      additionalProperties: { oneOf: [{ type: 'array', items: { type: 'string' }, minItems: 1 }, { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }] },
    },
    ViewErrors: { type: 'array', items: { type: 'string' }, minItems: 1 },
    // A 400 is field errors, a view-level list, or a parse error's {detail}.
    BadRequest: { anyOf: [{ $ref: '#/definitions/FieldErrors' }, { $ref: '#/definitions/ViewErrors' }, { $ref: '#/definitions/Detail' }] },
    Detail: object({ detail: { type: 'string' } }, ['detail']),
    ServerError: object({ detail: { type: 'string' }, error_id: uuid }, ['detail', 'error_id']),
    AgentInactive: object({ code: { const: 'agent_inactive' }, message: { type: 'string' }, reactivation_url: { type: 'string', format: 'uri' } }, ['code', 'message', 'reactivation_url']),
  };
}

/**
 * The schema each operation's answer must match, by status. From the document where it describes
 * the answer; otherwise (or where the service differs) from docs/service-behaviour.md, with the reason.
 */
export const RESPONSE_OVERRIDES: Record<string, Record<number, { schema: string; why: string }>> = {
  listAllTasks: { 200: { schema: 'PaginatedTaskList', why: 'the document says one TaskList; the service pages like every list' } },
  assignTask: { 201: { schema: 'TaskWaitAnswer', why: 'with `wait` the answer adds result or wait_error to the record' }, 400: { schema: 'BadRequest', why: 'DRF field errors (or a parse error), not only {detail}' } },
  assignTask2: { 201: { schema: 'TaskWaitAnswer', why: 'as assignTask' }, 400: { schema: 'BadRequest', why: 'as assignTask' } },
  getTaskResult: { 200: { schema: 'TaskResult', why: 'the document says TaskDetail; the result action answers id, agent_id, status and the outcome' } },
  getTaskResult2: { 200: { schema: 'TaskResult', why: 'as getTaskResult' } },
  activatePersistentAgent: { 200: { schema: 'Activation', why: 'the action answers {status, updated}, not the agent' } },
  deactivatePersistentAgent: { 200: { schema: 'Activation', why: 'as activate' } },
  sendPersistentAgentMessage: {
    201: { schema: 'MessageCreated', why: 'the document says 200 with the agent; the service creates the message event: 201 {event}' },
    409: { schema: 'AgentInactive', why: 'a paused agent: {code: agent_inactive, message, reactivation_url}' },
  },
  getPersistentAgentProcessingStatus: { 200: { schema: 'ProcessingStatus', why: 'the document says the agent; the service answers its processing snapshot' } },
  getPersistentAgentTimeline: { 200: { schema: 'Timeline', why: 'the document says the agent; the service answers a window of events' } },
  listWebTasks: { 200: { schema: 'WebTasks', why: 'the document says the agent; the service answers {results, limit} (not paginated)' } },
  previewPersistentAgentSchedule: { 200: { schema: 'SchedulePreview', why: 'the document says the agent; the service reads only `schedule` and answers {valid, disabled, description}' } },
};

/** The error bodies of docs/service-behaviour.md's table, by status, where an operation's document lists none. */
export const ERROR_SCHEMAS: Record<number, string> = {
  400: 'BadRequest',
  402: 'InsufficientCreditsResponse',
  403: 'Detail',
  404: 'Detail',
  405: 'Detail',
  409: 'Detail',
  415: 'Detail',
  500: 'ServerError',
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A validator of answers: strict (no keys the document does not list) unless told otherwise. */
export function createValidator(strict = true) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addFormat('decimal', /^-?\d*(\.\d+)?$/);
  const defs = definitions(strict);
  const cache = new Map<string, ValidateFunction>();
  const compile = (name: string): ValidateFunction => {
    let validate = cache.get(name);
    if (!validate) {
      if (!(name in defs)) throw new Error(`no schema named ${name}`);
      validate = ajv.compile({ $ref: `#/definitions/${name}`, definitions: defs });
      cache.set(name, validate);
    }
    return validate;
  };

  /** The schema name an answer of `operationId` with `status` must match. */
  const schemaFor = (operationId: string, status: number): string | undefined => {
    const override = RESPONSE_OVERRIDES[operationId]?.[status];
    if (override) return override.schema;
    const operation = operations.find((op) => op.operationId === operationId);
    if (!operation) throw new Error(`no operation ${operationId} in the document`);
    const response = document.paths[operation.path]![operation.method.toLowerCase()]!.responses[String(status)];
    const ref = response?.content?.['application/json']?.schema.$ref;
    if (typeof ref === 'string') return ref.replace('#/components/schemas/', '');
    if (status === 204) return undefined;
    if (status >= 400) return ERROR_SCHEMAS[status];
    throw new Error(`${operationId}: the document describes no ${status} answer and no override says what it is`);
  };

  return {
    schemaFor,
    /** The problems of `body` against `schema` (empty when it conforms). */
    problems(schema: string, body: unknown): string[] {
      const validate = compile(schema);
      return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
    },
    definitions: defs,
  };
}
