// What the client checks a response against, without loading zod: a response's name and its
// generated predicate (acceptors.generated.js, `npm run generate`). The zod schema behind a name
// (responses.ts) loads only when the predicate refuses a body, to word the error.
import type * as z from 'zod/mini';
import { ACCEPTORS } from './acceptors.generated.js';
import type { RESPONSE_SCHEMAS, ResponseName } from './responses.js';

/** A response the client checks, typed by what its schema accepts. */
export interface Shape<T> {
  readonly name: ResponseName;
  /** Accepts exactly the bodies the schema accepts; null: only zod can tell. */
  readonly accept: ((body: unknown) => boolean) | null;
  /** Never set: carries the type. */
  readonly type?: T;
}

type ShapeOf<K extends ResponseName> = Shape<z.output<(typeof RESPONSE_SCHEMAS)[K]>>;

/** Every generated response's shape, by name (`SHAPES.task`): a name without a predicate yet is a compile error. */
export const SHAPES = Object.fromEntries(
  Object.entries(ACCEPTORS).map(([name, accept]) => [name, { name, accept }]),
) as { [K in keyof typeof ACCEPTORS & ResponseName]: ShapeOf<K> };

/** The zod schema behind a shape, loaded on first use. */
export async function schemaOf<T>(shape: Shape<T>): Promise<z.ZodMiniType<T>> {
  const { RESPONSE_SCHEMAS } = await import('./responses.js');
  return RESPONSE_SCHEMAS[shape.name] as unknown as z.ZodMiniType<T>;
}
