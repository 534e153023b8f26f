// Re-posting received events to another URL, in order, retrying while that URL is down.

/** One event to re-post: the body exactly as received, with its content type and user agent. */
export interface ForwardItem {
  body: Buffer;
  contentType: string;
  userAgent?: string;
  /** For messages (the task id). */
  label: string;
}

export type SendOutcome = { status: number; retryAfterMs?: number };

/** Posts one item; resolves with the HTTP status, rejects on a network error. */
export type Sender = (target: string, item: ForwardItem, signal: AbortSignal) => Promise<SendOutcome>;

export interface ForwarderOptions {
  send?: Sender;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** First retry delay; doubles per failed attempt up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Limit for one attempt (the service itself gives a webhook 10 s). */
  attemptTimeoutMs?: number;
  /** 0..1, for jitter; Math.random by default. */
  random?: () => number;
  onDelivered?: (item: ForwardItem, attempts: number) => void;
  /** A failed attempt that will be retried after `delayMs`. */
  onRetry?: (item: ForwardItem, reason: string, attempt: number, delayMs: number) => void;
  /** The target refused the event for good (a 4xx other than 408/429): it is not retried. */
  onRejected?: (item: ForwardItem, reason: string) => void;
}

export interface ForwarderStats {
  target: string;
  forwarded: number;
  rejected: number;
  /** Waiting or being sent right now. */
  queued: number;
  retries: number;
}

/** 5xx, 408 and 429 mean "try again later"; other 4xx mean the target will never take this body. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Retry-After as seconds or an HTTP date, in ms (undefined when absent or unreadable). */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export const fetchSender: Sender = async (target, item, signal) => {
  const headers: Record<string, string> = { 'content-type': item.contentType };
  if (item.userAgent) headers['user-agent'] = item.userAgent;
  const response = await fetch(target, { method: 'POST', headers, body: item.body, signal, redirect: 'follow' });
  // Drain the body so the connection can be reused.
  await response.arrayBuffer().catch(() => undefined);
  return { status: response.status, retryAfterMs: parseRetryAfter(response.headers.get('retry-after')) };
};

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function errorText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

/**
 * A FIFO queue per target: one event in flight at a time, the head retried with exponential
 * backoff (with jitter) until the target takes it, so events arrive in the order they were
 * received, none twice unless the target lost an answer. Enqueueing never waits: the listener
 * acknowledges the service at once, whatever the target is doing.
 */
export class Forwarder {
  private readonly queue: ForwardItem[] = [];
  private running = false;
  private readonly stopper = new AbortController();
  private drainWaiters: Array<() => void> = [];
  private readonly send: Sender;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  forwarded = 0;
  rejected = 0;
  retries = 0;
  /** Attempts of the current head that failed (0 while the target is healthy). */
  failingFor = 0;

  constructor(
    readonly target: string,
    private readonly options: ForwarderOptions = {},
  ) {
    this.send = options.send ?? fetchSender;
    this.sleep = options.sleep ?? abortableSleep;
  }

  get queued(): number {
    return this.queue.length;
  }

  get stats(): ForwarderStats {
    return { target: this.target, forwarded: this.forwarded, rejected: this.rejected, queued: this.queued, retries: this.retries };
  }

  enqueue(item: ForwardItem): void {
    if (this.stopper.signal.aborted) return;
    this.queue.push(item);
    if (!this.running) void this.pump();
  }

  /** Resolves true once the queue is empty, or false when `timeoutMs` runs out first. */
  drain(timeoutMs = Infinity): Promise<boolean> {
    if (this.queue.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        resolve(this.queue.length === 0);
      };
      this.drainWaiters.push(done);
      if (Number.isFinite(timeoutMs)) {
        timer = setTimeout(() => {
          this.drainWaiters = this.drainWaiters.filter((waiter) => waiter !== done);
          resolve(this.queue.length === 0);
        }, timeoutMs);
      }
    });
  }

  /** Stops at once: the attempt in flight is aborted, what is queued stays counted as queued. */
  stop(): void {
    this.stopper.abort(new Error('forwarder stopped'));
    for (const done of this.drainWaiters.splice(0)) done();
  }

  private async pump(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0 && !this.stopper.signal.aborted) {
        const item = this.queue[0] as ForwardItem;
        const delivered = await this.deliver(item);
        if (!delivered) return; // stopped
        this.queue.shift();
      }
    } finally {
      this.running = false;
      if (this.queue.length === 0 || this.stopper.signal.aborted) for (const done of this.drainWaiters.splice(0)) done();
    }
  }

  /** Tries until the target answers for good; false only when stopped. */
  private async deliver(item: ForwardItem): Promise<boolean> {
    const initial = this.options.initialDelayMs ?? 200;
    const max = this.options.maxDelayMs ?? 10_000;
    const random = this.options.random ?? Math.random;
    for (let attempt = 1; ; attempt++) {
      if (this.stopper.signal.aborted) return false;
      let reason: string;
      let retryAfterMs: number | undefined;
      const signal = AbortSignal.any([this.stopper.signal, AbortSignal.timeout(this.options.attemptTimeoutMs ?? 10_000)]);
      try {
        const outcome = await this.send(this.target, item, signal);
        if (outcome.status < 400) {
          this.forwarded++;
          this.failingFor = 0;
          this.options.onDelivered?.(item, attempt);
          return true;
        }
        if (!isRetryableStatus(outcome.status)) {
          this.rejected++;
          this.failingFor = 0;
          this.options.onRejected?.(item, `answered ${outcome.status}`);
          return true;
        }
        reason = `answered ${outcome.status}`;
        retryAfterMs = outcome.retryAfterMs;
      } catch (error) {
        if (this.stopper.signal.aborted) return false;
        reason = errorText(error);
      }
      this.failingFor = attempt;
      this.retries++;
      const backoff = Math.min(max, initial * 2 ** Math.min(attempt - 1, 20));
      // Half fixed, half random: spread out, but never much shorter than the backoff.
      const delay = Math.min(max, Math.max(retryAfterMs ?? 0, backoff / 2 + random() * (backoff / 2)));
      this.options.onRetry?.(item, reason, attempt, delay);
      try {
        await this.sleep(delay, this.stopper.signal);
      } catch {
        return false;
      }
    }
  }
}
