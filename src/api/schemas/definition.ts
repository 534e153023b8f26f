// What agentctl's generators read of a zod (core) schema: its definition and a few internals. One
// reading for both: accept.ts writes a schema's predicate from it, declare.ts its TypeScript type.
import type { ZodMiniType } from 'zod/mini';

/** What the generators read of a zod (core) definition. */
export interface Definition {
  type: string;
  checks?: Array<{ _zod: { def: { check: string; value?: unknown; inclusive?: boolean } } }>;
  check?: string;
  format?: string;
  coerce?: boolean;
  innerType?: ZodMiniType;
  shape?: Record<string, ZodMiniType>;
  catchall?: ZodMiniType;
  element?: ZodMiniType;
  options?: ZodMiniType[];
  /** A record's keys and values. */
  keyType?: ZodMiniType;
  valueType?: ZodMiniType;
  /** A literal's values. */
  values?: unknown[];
  /** false for z.xor and discriminated unions, which accept less than "any option accepts". */
  inclusive?: boolean;
}

/** What the generators read of a schema besides its definition. */
export interface Internals {
  def: Definition;
  /** 'optional' when a missing key passes on input (optional, default)... */
  optin?: string;
  /** ...and when it may be missing from the output (optional, not default). */
  optout?: string;
  /** The constructors a schema was built by (z.exactOptional is an optional that refuses undefined). */
  traits: Set<string>;
  /** The values an enum accepts (its entries' values without a numeric enum's reverse names). */
  values?: Set<unknown>;
}

export const internalsOf = (schema: ZodMiniType) => (schema as unknown as { _zod: Internals })._zod;
