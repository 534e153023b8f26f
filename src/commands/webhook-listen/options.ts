import { checkHttpUrl as checkUrl, checkUuid, parseIntegerFlag, parseSecondsFlag } from '../../contract/validate.js';
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

export function parseListenConfig(options: Record<string, unknown>, timeoutFlag: string | undefined): ListenConfig {
  const host = String(options.host ?? '127.0.0.1').trim();
  if (host === '') throw new UsageError('--host must not be empty');
  const port = parseIntegerFlag(String(options.port ?? '0'), '--port', 0, 65535);
  const path = options.path === undefined ? undefined : checkPath(String(options.path));
  const forwardTo = ((options.forwardTo as string[] | undefined) ?? []).map((url) => checkHttpUrl(url, '--forward-to'));
  const taskId = options.task === undefined ? undefined : checkUuid(String(options.task), '--task');
  if (options.once && options.count !== undefined) throw new UsageError('choose --once or --count N, not both');
  const count = options.once ? 1 : options.count === undefined ? undefined : parseIntegerFlag(String(options.count), '--count', 1, 1_000_000_000);
  const timeoutMs = timeoutFlag === undefined ? undefined : parseSecondsFlag(timeoutFlag, '--timeout', 0.001) * 1000;
  const maxBodyBytes = parseIntegerFlag(String(options.maxBody ?? DEFAULT_MAX_BODY_BYTES), '--max-body', 64, 64 * 1024 * 1024);
  const drainTimeoutMs = parseSecondsFlag(String(options.drainTimeout ?? '30'), '--drain-timeout') * 1000;
  let outputPath: string | undefined;
  if (options.output !== undefined) {
    outputPath = String(options.output);
    if (outputPath.trim() === '' || outputPath === '-') throw new UsageError('--output needs a file path (events already go to stdout)');
  }
  return { host, port, path, printUrl: Boolean(options.printUrl), forwardTo, outputPath, taskId, count, timeoutMs, maxBodyBytes, drainTimeoutMs };
}
