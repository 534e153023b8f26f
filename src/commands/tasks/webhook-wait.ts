// `tasks create ... --webhook-listen`: wait for the completion webhook instead of polling, with a
// slow poll alongside so a webhook that never arrives (unreachable listener, lost request, the
// service skipping delivery) cannot hang a CI job.
import type { Task } from '../../api/schemas/task.js';
import { createTimeoutMs, tasks, type TaskScope } from '../../api/tasks.js';
import { isFinal } from '../../api/wait.js';
import { waitForTaskEnd } from '../../core/wait.js';
import type { Context } from '../../cli/context.js';
import { ExitError, UsageError } from '../../errors.js';
import { ExitCode } from '../../errors.js';
import { publicWebhookUrl, randomPath, startListener, type Listener } from '../../webhooks/listener.js';
import type { WebhookPayload, WebhookStatus } from '../../webhooks/payload.js';
import { buildTaskBody, type TaskFieldOptions } from './body.js';
import type { WaitFlags } from './options.js';
import { describeWaitEvent, exitCodeForStatus, printResult, requestLimitMs, resumeCommand, startWait, waitRanOut, withResumeHint, type WaitOptions } from './outcome.js';
import { isLoopbackHost } from '../../contract/url.js';

/** --webhook-listen and its companions, checked (see create.ts). */
export interface ListenSettings {
  /** The public base URL (a tunnel) the service calls. */
  publicUrl?: string;
  host: string;
  port: number;
  /** --max-outage and --timeout; maxIntervalMs is the fallback poll's interval. */
  limits: WaitFlags;
}

export interface ListenCreateOptions {
  scope: TaskScope;
  prompt?: string;
  fields: TaskFieldOptions;
  idOnly: boolean;
  listen: ListenSettings;
}

/** Events by task id, kept from the moment the listener starts (a webhook may beat the create answer). */
export class EventInbox {
  private readonly events = new Map<string, WebhookPayload>();
  private readonly waiters = new Map<string, (payload: WebhookPayload) => void>();

  add(payload: WebhookPayload): void {
    const id = payload.id.toLowerCase();
    if (this.events.has(id)) return; // the first word on a task is the one that counts
    this.events.set(id, payload);
    this.waiters.get(id)?.(payload);
  }

  waitFor(id: string, signal: AbortSignal): Promise<WebhookPayload> {
    const key = id.toLowerCase();
    const known = this.events.get(key);
    if (known) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters.delete(key);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(key, (payload) => {
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(key);
        resolve(payload);
      });
    });
  }
}



type Outcome =
  | { source: 'webhook'; status: WebhookStatus }
  | { source: 'poll'; status: WebhookStatus; task: Task }
  | { source: 'timeout'; task?: Task };

export async function createAndListen(ctx: Context, { scope, prompt, fields, idOnly, listen }: ListenCreateOptions): Promise<void> {
  const { publicUrl, host, port } = listen;
  const limits = startWait(ctx, listen.limits);
  const fallbackMs = limits.maxIntervalMs;
  const body = await buildTaskBody(prompt, fields, 'create', ctx.io, ctx.redactor);
  const client = await ctx.client();

  const inbox = new EventInbox();
  let listener: Listener;
  try {
    // A tunnel or proxy may pass the public URL's path prefix on, or strip it: accept both.
    const path = randomPath();
    const prefixed = publicUrl ? new URL(publicWebhookUrl(publicUrl, path)).pathname : path;
    listener = await startListener({ host, port, path, extraPaths: [prefixed], onEvent: (event) => inbox.add(event.record.body) });
  } catch (error) {
    throw new UsageError(`cannot listen on ${host}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const webhookUrl = publicUrl ? publicWebhookUrl(publicUrl, listener.path) : listener.url;
    body.webhook = webhookUrl;
    if (!publicUrl && !isLoopbackHost(new URL(client.baseUrl).hostname)) {
      ctx.out.warn(
        `the service at ${new URL(client.baseUrl).host} probably cannot reach ${listener.url}; ` +
          `pass --public-url (e.g. a tunnel to port ${listener.port}) or agentctl relies on polling every ${fallbackMs / 1000}s`,
      );
    }

    ctx.onInterrupt('Interrupted while creating the task: it may exist already; check with `agentctl tasks list`.');
    const timeoutMs = Math.min(createTimeoutMs(body, ctx.requestTimeoutMs), requestLimitMs(ctx, limits.deadline));
    const task = await tasks.create(client, scope, body, { timeoutMs, signal: ctx.signal });
    if (idOnly) ctx.out.line(task.id);
    else ctx.out.info(`Created task ${task.id}; waiting for its webhook at ${webhookUrl} (Ctrl-C stops waiting, not the task).`);

    const outcome = await waitForOutcome(ctx, task, scope, inbox, limits);
    if (outcome.source === 'timeout') {
      if (ctx.out.machine) ctx.out.json(outcome.task ?? task);
      else if (!idOnly) ctx.out.line(task.id);
      waitRanOut(ctx, `Task ${task.id} is still ${(outcome.task ?? task).status} at the --timeout`, resumeCommand(task.id, scope));
    }
    if (outcome.source === 'webhook') {
      ctx.out.info(`Webhook received: task ${task.id} ${outcome.status}.`);
    } else {
      const why = outcome.task.webhook_last_error ? ` (the service reported: ${outcome.task.webhook_last_error})` : '';
      ctx.out.warn(`no webhook arrived for task ${task.id}; polling found it ${outcome.status}${why}`);
    }
    if (!idOnly) {
      const result = await tasks.result(client, scope, task.id, { signal: ctx.signal }).catch((error: unknown) => {
        throw withResumeHint(error, task.id, scope, ctx.signal);
      });
      printResult(ctx, result);
    }
    const code = exitCodeForStatus(outcome.status);
    if (code !== ExitCode.ok) throw new ExitError(code);
  } finally {
    await listener.close();
  }
}

/** The webhook, or the slow fallback poll (which rides out outages), or the deadline: whichever comes first. */
async function waitForOutcome(ctx: Context, task: Task, scope: TaskScope, inbox: EventInbox, limits: Omit<WaitOptions, 'silent'>): Promise<Outcome> {
  if (isFinal(task.status)) return { source: 'poll', status: task.status as WebhookStatus, task };
  const client = await ctx.client();
  ctx.onInterrupt(`Stopped waiting. Task ${task.id} keeps running; resume with:\n  ${resumeCommand(task.id, scope)}`);
  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stop.signal]);
  const spinner = await ctx.spinner(`Task ${task.id}: waiting for its webhook`);
  const poll = async (): Promise<Outcome> => {
    const outcome = await waitForTaskEnd({
      api: client,
      scope,
      id: task.id,
      limits: {
        ...limits,
        // The create's answer was the first look: the fallback's first request comes one interval later.
        initialDelayMs: limits.maxIntervalMs,
        minIntervalMs: limits.maxIntervalMs,
      },
      clock: ctx.clock,
      signal,
      onEvent: (event) => {
        const line = describeWaitEvent(event);
        if (line) ctx.out.warn(`${line}; still waiting for the webhook`);
      },
    });
    if (outcome.kind === 'finished') return { source: 'poll', status: outcome.task.status as WebhookStatus, task: outcome.task };
    if (outcome.kind === 'timed-out') return { source: 'timeout', task: outcome.task };
    throw withResumeHint(outcome.error, task.id, scope);
  };
  try {
    return await Promise.race<Outcome>([inbox.waitFor(task.id, signal).then((payload) => ({ source: 'webhook', status: payload.status })), poll()]);
  } finally {
    stop.abort();
    spinner.stop();
    ctx.onInterrupt(undefined);
  }
}
