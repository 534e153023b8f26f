import { checkHttpUrl as checkUrl, checkUuid, parseIntegerFlag, parseSecondsFlag } from '../../contract/validate.js';
import type { ParseInput } from '../../cli/define.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_MAX_BODY_BYTES, normalizePath } from '../../webhooks/listener.js';

/** The flags of `webhook-listen`, checked before anything starts. */
export interface ListenConfig {
  host: string;
  port: number;
  path?: string;
  printUrl: boolean;
  forwardTo: string[];
  outputPath?: string;
  taskId?: string;
  /** Exit after this many events (--count N, --once = 1). */
  count?: number;
  /** Overall listening time (the global --timeout). */
  timeoutMs?: number;
  maxBodyBytes: number;
  drainTimeoutMs: number;
}

/** An http(s) URL, or a usage error naming the flag. */
export function checkHttpUrl(value: string, flag: string): string {
  return checkUrl(value, flag).toString();
}

export function checkPath(value: string, flag = '--path'): string {
  try {
    return normalizePath(value);
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}`, 'for example --path /hooks/s3cret');
  }
}

/** What was typed for `webhook-listen` (commander's values, before checking). */
export interface ListenFlags {
  host?: string;
  port?: string;
  path?: string;
  printUrl?: boolean;
  forwardTo?: string[];
  output?: string;
  task?: string;
  count?: string;
  once?: boolean;
  maxBody?: string;
  drainTimeout?: string;
}

export function listenFlags(input: ParseInput): ListenFlags {
  return {
    host: input.string('host'),
    port: input.string('port'),
    path: input.string('path'),
    printUrl: input.flag('printUrl'),
    forwardTo: input.list('forwardTo'),
    output: input.string('output'),
    task: input.string('task'),
    count: input.string('count'),
    once: input.flag('once'),
    maxBody: input.string('maxBody'),
    drainTimeout: input.string('drainTimeout'),
  };
}

export function parseListenConfig(flags: ListenFlags, timeoutFlag: string | undefined): ListenConfig {
  const host = (flags.host ?? '127.0.0.1').trim();
  if (host === '') throw new UsageError('--host must not be empty');
  const port = parseIntegerFlag(flags.port ?? '0', '--port', 0, 65535);
  const path = flags.path === undefined ? undefined : checkPath(flags.path);
  const forwardTo = (flags.forwardTo ?? []).map((url) => checkHttpUrl(url, '--forward-to'));
  const taskId = flags.task === undefined ? undefined : checkUuid(flags.task, '--task');
  if (flags.once && flags.count !== undefined) throw new UsageError('choose --once or --count N, not both');
  const count = flags.once ? 1 : flags.count === undefined ? undefined : parseIntegerFlag(flags.count, '--count', 1, 1_000_000_000);
  const timeoutMs = timeoutFlag === undefined ? undefined : parseSecondsFlag(timeoutFlag, '--timeout', 0.001) * 1000;
  const maxBodyBytes = parseIntegerFlag(flags.maxBody ?? String(DEFAULT_MAX_BODY_BYTES), '--max-body', 64, 64 * 1024 * 1024);
  const drainTimeoutMs = parseSecondsFlag(flags.drainTimeout ?? '30', '--drain-timeout') * 1000;
  const outputPath = flags.output;
  if (outputPath !== undefined && (outputPath.trim() === '' || outputPath === '-')) {
    throw new UsageError('--output needs a file path (events already go to stdout)');
  }
  return { host, port, path, printUrl: Boolean(flags.printUrl), forwardTo, outputPath, taskId, count, timeoutMs, maxBodyBytes, drainTimeoutMs };
}
