// The types of acceptors.generated.js (written by `npm run generate`).
import type { ResponseName } from './responses.js';

/** One predicate per response schema, accepting exactly the bodies it accepts; null where zod alone decides. */
export declare const ACCEPTORS: Record<ResponseName, ((value: unknown) => boolean) | null>;
