// The library entry `agentctl/client` (package.json "exports"): a typed client of the service with
// agentctl's waits, page walks, retries, Retry-After handling, timeouts and redaction, for code that
// would otherwise spawn the command line. docs/library.md describes it. Nothing of the command
// line's start-up loads it.
export { createClient } from './client.js';
export type * from './surface.js';
export type * from './types.js';
export type * from './surface-tools.js';
export { WaitTimeoutError } from './errors.js';
export { InputError, UsageError } from '../errors.js';
export { ApiError, ClosedServiceError, EndlessListError, MissingApiVersionError, NetworkError, PartialListError, RedirectError, ResponseShapeError, WaitEndedError, type RetryAfter } from '../api/errors.js';
export { MissingFileError, ServiceToolMissingError } from '../api/errors.js';
