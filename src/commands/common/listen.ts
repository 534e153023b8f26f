import { UsageError } from '../../errors.js';

/**
 * Why a local server could not start listening, as a usage error (exit 2) that says what to change;
 * an error that is not the system's answer to listening (a bug) is left as it is.
 */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return error;
  const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' ? 'no such local address' : (error as Error).message;
  return new UsageError(`cannot listen on ${host}:${port}: ${why}`, code === 'EADDRINUSE' ? 'pick another --port, or 0 for any free one' : undefined);
}
