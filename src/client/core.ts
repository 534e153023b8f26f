import type { ApiClient } from '../api/client.js';
import type { Redactor } from '../api/redact.js';
import type { Clock } from '../contract/clock.js';

/** What the parts of the client share. */
export interface ClientCore {
  api: ApiClient;
  redactor: Redactor;
  /** Each request's time limit. */
  timeoutMs: number;
  clock?: Clock;
  signal?: AbortSignal;
  /** Runs a call, its errors' messages redacted. */
  call<T>(work: () => Promise<T>): Promise<T>;
  /** An async iterable whose errors are redacted likewise. */
  iterate<T>(items: () => AsyncIterable<T>): AsyncIterable<T>;
}
