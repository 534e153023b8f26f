// Re-posting received events to another URL, in order, retrying while that URL is down.
import { Agent } from 'undici';
import { systemClock, type Clock } from '../contract/clock.js';
import { DEFAULT_RETRY_POLICY, mayRepeat, parseRetryAfter, retryDelayMs, type Failure, type RetryPolicy } from '../api/retry.js';

/** One event to re-post: the body exactly as received, with its content type and user agent. */
export interface ForwardItem {
  body: Buffer;
  contentType: string;
  userAgent?: string;
  /** For messages (the task id). */
  label: string;
  /** Where the event's line ends in the --output log: the durable cursor moves here once it is sent. */
  position?: number;
}

/** `refusal` says why a status that is not a 2xx was the last answer (a redirect that could not be followed). */
export type SendOutcome = { status: number; retryAfterMs?: number; refusal?: string };

/** Posts one item; resolves with the HTTP status, rejects on a network error. */
export type Sender = (target: string, item: ForwardItem, signal: AbortSignal) => Promise<SendOutcome>;

export interface RetryNotice {
  reason: string;
  /** Failed attempts of this item so far. */
  attempt: number;
  delayMs: number;
  /** The first failure after the target last took an event. */
  outageStarted: boolean;
}

export interface ForwarderOptions {
  /** The HTTP sender (default: a keep-alive, pipelining connection per target origin). */
  send?: Sender;
  /** Deliveries in flight at once while the target is healthy (default 8); 1 while it fails. */
  window?: number;
  /** Waits between attempts (the system clock by default; tests pass a fake one). */
  clock?: Pick<Clock, 'sleep'>;
  /**
   * The one retry policy (src/api/retry.ts): backoff, the longest Retry-After waited out, which
   * failures may repeat. Its retry count does not apply: an event is tried until the target takes
   * or refuses it, or the forwarder stops.
   */
  retry?: RetryPolicy;
  /** Limit for one attempt (the service itself gives a webhook 10 s). */
  attemptTimeoutMs?: number;
  /** 0..1, for jitter; Math.random by default. */
  random?: () => number;
  onDelivered?: (item: ForwardItem, recovered: boolean) => void;
  /** A failed attempt that will be repeated after `delayMs`. */
  onRetry?: (item: ForwardItem, notice: RetryNotice) => void;
  /** The event failed for good (a 4xx other than 408/429, or a lasting network error): not retried. */
  onRejected?: (item: ForwardItem, reason: string) => void;
  /** Called in queue order once an item and every item before it are delivered or refused. */
  onSettled?: (item: ForwardItem) => void;
}

export interface ForwarderStats {
  target: string;
  forwarded: number;
  rejected: number;
  /** Waiting or being sent right now. */
  queued: number;
  retries: number;
}

/** An HTTP sender and the connections it keeps open. */
export interface HttpSender {
  send: Sender;
  /** Closes the connections, failing requests still under way. */
  close(): Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * Posts through one keep-alive connection per target origin with up to `window` requests
 * pipelined on it, so events reach the target in the order they were sent and no connection is
 * opened per event. It uses undici's dispatcher directly (a handler rather than a response
 * stream and promise per request: a third less CPU per event). A redirect is followed by posting
 * the event again to the new location, as the service's own webhook call follows redirects.
 */
export function httpSender(window: number, attemptTimeoutMs: number): HttpSender {
  const agent = new Agent({ connections: 1, pipelining: window, keepAliveTimeout: 10_000 });
  const parsed = new Map<string, URL>();
  const post = (url: URL, item: ForwardItem): Promise<SendOutcome & { location?: string }> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'content-type': item.contentType };
      if (item.userAgent) headers['user-agent'] = item.userAgent;
      let outcome: SendOutcome & { location?: string } = { status: 0 };
      agent.dispatch(
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: 'POST',
          headers,
          body: item.body,
          // A webhook may arrive twice (the forwarder retries), so it may share the pipeline.
          idempotent: true,
          blocking: false,
          headersTimeout: attemptTimeoutMs,
          bodyTimeout: attemptTimeoutMs,
        },
        {
          onConnect: () => undefined,
          onHeaders: (status, rawHeaders) => {
            // Only a redirect or a "try later" answer has headers the forwarder reads.
            outcome = status < 300 ? { status } : { status, ...responseHeaders(rawHeaders) };
            return true;
          },
          // The answer's body is read to its end (so the connection stays usable) and dropped.
          onData: () => true,
          onComplete: () => resolve(outcome),
          onError: reject,
        },
      );
    });
  return {
    async send(target, item) {
      let url = parsed.get(target);
      if (!url) parsed.set(target, (url = new URL(target)));
      for (let redirects = 0; ; redirects++) {
        const { location, ...outcome } = await post(url, item);
        if (!REDIRECTS.has(outcome.status)) return outcome;
        if (location === undefined) return { ...outcome, refusal: `answered ${outcome.status} without a Location header` };
        if (redirects === MAX_REDIRECTS) return { ...outcome, refusal: `answered ${outcome.status} ${MAX_REDIRECTS + 1} times in a row (a redirect loop)` };
        url = new URL(location, url);
      }
    },
    close: () => agent.destroy(),
  };
}

/** Retry-After (a date measured from the answer's own Date) and Location from undici's raw header list ([name, value, name, value...]). */
function responseHeaders(raw: Buffer[]): { retryAfterMs?: number; location?: string } {
  const found: { retryAfterMs?: number; location?: string } = {};
  let retryAfter: string | undefined;
  let date: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    if (name === 'retry-after') retryAfter = String(raw[i + 1]);
    else if (name === 'date') date = String(raw[i + 1]);
    else if (name === 'location') found.location = String(raw[i + 1]);
  }
  if (retryAfter !== undefined) found.retryAfterMs = parseRetryAfter(retryAfter, Date.now(), date);
  return found;
}

function errorCode(error: unknown): string | undefined {
  const withCode = error as { code?: string; name?: string; cause?: { code?: string } };
  return withCode.code ?? withCode.cause?.code ?? (withCode.name === 'TimeoutError' ? 'TimeoutError' : undefined);
}

function errorText(error: unknown): string {
  const withCause = error as { code?: string; cause?: { code?: string; message?: string } };
  return withCause.cause?.code ?? withCause.code ?? withCause.cause?.message ?? (error as Error)?.message ?? String(error);
}

interface Entry {
  item: ForwardItem;
  seq: number;
  state: 'waiting' | 'sending' | 'settled';
  attempts: number;
}

/**
 * A FIFO queue per target. While the target is healthy up to `window` events are in flight, sent
 * in the order they were received; once an attempt fails, one event at a time is sent (the
 * earliest first) with backoff until the target takes one, so an outage does not reorder more than
 * the window. Items settle in order (`onSettled`), which is what the durable cursor follows.
 * Enqueueing never waits: the listener acknowledges the service at once, whatever the target does.
 */
export class Forwarder {
  private entries: Entry[] = [];
  /** First unsettled entry. */
  private head = 0;
  /** First entry never sent. */
  private fresh = 0;
  private nextSeq = 0;
  /** Entries whose attempt failed, earliest first, waiting for the backoff to end. */
  private retryQueue: Entry[] = [];
  private inFlight = 0;
  private pause?: Promise<void>;
  private failing = false;
  private pumpQueued = false;
  private readonly stopper = new AbortController();
  private readonly drainWaiters: Array<() => void> = [];
  /** Set by finishInFlight: nothing more is sent, what is under way is let end. */
  private winding = false;
  private readonly idleWaiters: Array<() => void> = [];
  private readonly send: Sender;
  private readonly ownSender?: HttpSender;
  private readonly window: number;
  private readonly clock: Pick<Clock, 'sleep'>;
  forwarded = 0;
  rejected = 0;
  retries = 0;

  constructor(
    readonly target: string,
    private readonly options: ForwarderOptions = {},
  ) {
    this.window = Math.max(1, options.window ?? 8);
    if (options.send) this.send = options.send;
    else {
      this.ownSender = httpSender(this.window, options.attemptTimeoutMs ?? 10_000);
      this.send = this.ownSender.send;
    }
    this.clock = options.clock ?? systemClock;
  }

  get queued(): number {
    return this.entries.length - this.head;
  }

  get stats(): ForwarderStats {
    return { target: this.target, forwarded: this.forwarded, rejected: this.rejected, queued: this.queued, retries: this.retries };
  }

  enqueue(item: ForwardItem): void {
    if (this.stopper.signal.aborted) return;
    this.entries.push({ item, seq: this.nextSeq++, state: 'waiting', attempts: 0 });
    // Sent once the caller's current work is done (the listener answers the events of one disk
    // write first), and then together.
    if (!this.pumpQueued) {
      this.pumpQueued = true;
      queueMicrotask(() => {
        this.pumpQueued = false;
        this.pump();
      });
    }
  }

  /** Resolves true once the queue is empty, or false when `timeoutMs` runs out first. */
  drain(timeoutMs = Infinity): Promise<boolean> {
    return this.until(() => this.queued === 0, this.drainWaiters, timeoutMs);
  }

  /**
   * Sends nothing more, and resolves once the attempts already under way have ended (or after
   * `timeoutMs`). An attempt the target is answering ends counted as forwarded, so its durable
   * cursor moves past it: cut short, it would be sent again on the next start, after the target
   * may already have it. Call stop() after.
   */
  async finishInFlight(timeoutMs: number): Promise<void> {
    this.winding = true;
    await this.until(() => this.inFlight === 0, this.idleWaiters, timeoutMs);
  }

  /** Stops at once: attempts in flight are aborted, what is queued stays counted as queued. */
  async stop(): Promise<void> {
    this.stopper.abort(new Error('forwarder stopped'));
    for (const done of [...this.drainWaiters.splice(0), ...this.idleWaiters.splice(0)]) done();
    await this.ownSender?.close().catch(() => undefined);
  }

  /**
   * Resolves with `settled()` once it holds (`waiters` are called when it may), once the forwarder
   * stops, or when `timeoutMs` runs out: the one wait behind drain and finishInFlight.
   */
  private until(settled: () => boolean, waiters: Array<() => void>, timeoutMs: number): Promise<boolean> {
    if (settled()) return Promise.resolve(true);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        resolve(settled());
      };
      waiters.push(done);
      if (Number.isFinite(timeoutMs)) {
        timer = setTimeout(() => {
          const at = waiters.indexOf(done);
          if (at !== -1) waiters.splice(at, 1);
          resolve(settled());
        }, timeoutMs);
      }
    });
  }

  private pump(): void {
    if (this.pause || this.winding || this.stopper.signal.aborted) return;
    const limit = this.failing ? 1 : this.window;
    while (this.inFlight < limit) {
      const entry = this.retryQueue.shift() ?? this.entries[this.fresh];
      if (!entry) return;
      if (entry === this.entries[this.fresh]) this.fresh++;
      void this.attempt(entry);
    }
  }

  private async attempt(entry: Entry): Promise<void> {
    entry.state = 'sending';
    entry.attempts++;
    this.inFlight++;
    let failure: Failure;
    let reason: string;
    let retryAfterMs: number | undefined;
    try {
      const outcome = await this.send(this.target, entry.item, this.stopper.signal);
      // Only a 2xx is a delivery: a redirect not followed (a loop, no Location) or a 304 leaves the
      // target without the event, so it is refused like a 4xx (reported), never counted as forwarded.
      if (outcome.status >= 200 && outcome.status < 300) return this.done(entry);
      if (outcome.status < 400) return this.done(entry, outcome.refusal ?? `answered ${outcome.status}, not a 2xx`);
      failure = { status: outcome.status };
      reason = `answered ${outcome.status}`;
      retryAfterMs = outcome.retryAfterMs;
    } catch (error) {
      failure = { code: errorCode(error) };
      reason = errorText(error);
    }
    // Stopping: not retried, and still counted as queued (--output keeps it for the next start).
    if (this.stopper.signal.aborted || this.winding) return this.ended();
    // A webhook delivery may repeat (receivers get it at least once), so every transient failure is retried.
    if (!mayRepeat('POST', failure, { repeatable: true })) return this.done(entry, reason);
    this.ended();
    entry.state = 'waiting';
    this.retries++;
    const at = this.retryQueue.findIndex((other) => other.seq > entry.seq);
    this.retryQueue.splice(at === -1 ? this.retryQueue.length : at, 0, entry);
    const outageStarted = !this.failing;
    this.failing = true;
    const policy = this.options.retry ?? DEFAULT_RETRY_POLICY;
    const delayMs = Math.min(policy.maxRetryAfterMs, retryDelayMs(entry.attempts - 1, policy, retryAfterMs, this.options.random));
    this.options.onRetry?.(entry.item, { reason, attempt: entry.attempts, delayMs, outageStarted });
    // One pause for the whole queue: later failures of the same outage do not stack more.
    this.pause ??= this.clock.sleep(delayMs, this.stopper.signal).then(
      () => {
        this.pause = undefined;
        this.pump();
      },
      () => undefined,
    );
  }

  /** An attempt that ended for good: delivered, or refused for `refusal` (not retried). */
  private done(entry: Entry, refusal?: string): void {
    this.ended();
    const recovered = this.failing;
    this.failing = false;
    if (refusal === undefined) {
      this.forwarded++;
      this.options.onDelivered?.(entry.item, recovered);
    } else {
      this.rejected++;
      this.options.onRejected?.(entry.item, refusal);
    }
    this.settle(entry);
    this.pump();
  }

  /** One attempt fewer in flight; wakes finishInFlight once none is left. */
  private ended(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const idle of this.idleWaiters.splice(0)) idle();
  }

  /** Marks an entry done and reports, in order, every entry now settled at the head. */
  private settle(entry: Entry): void {
    entry.state = 'settled';
    while (this.head < this.entries.length && (this.entries[this.head] as Entry).state === 'settled') {
      this.options.onSettled?.((this.entries[this.head] as Entry).item);
      this.head++;
    }
    // Drop settled entries now and then, so a long run does not keep every event.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.fresh -= this.head;
      this.head = 0;
    }
    if (this.queued === 0) for (const done of this.drainWaiters.splice(0)) done();
  }
}
