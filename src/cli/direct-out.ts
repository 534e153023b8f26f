import { fstatSync, statSync, writeSync } from 'node:fs';
import type { Command } from 'commander';

// Help and the version are a few KB written once. Creating `process.stdout` for that costs several
// milliseconds when stdout is a pipe (it builds a net.Socket), a large part of the start-up budget,
// so unless stdout may be a terminal they are written straight to fd 1 instead. (node:tty's isatty
// would load net too, so a terminal is told apart by fstat: a character device other than
// /dev/null, where output is discarded anyway.)

let terminal: boolean | undefined;
export function stdoutMayBeTerminal(): boolean {
  if (terminal === undefined) {
    try {
      const out = fstatSync(1);
      terminal = out.isCharacterDevice() && out.rdev !== statSync('/dev/null').rdev;
    } catch {
      terminal = true; // no usable fd 1: leave it to process.stdout
    }
  }
  return terminal;
}

/** Writes text to stdout; a closed pipe (`| head`) is not an error. */
export function writeStdout(text: string): void {
  if (stdoutMayBeTerminal()) {
    process.stdout.write(text);
    return;
  }
  let buffer = Buffer.from(text);
  while (buffer.length > 0) {
    let written: number;
    try {
      written = writeSync(1, buffer);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return;
      if (code === 'EAGAIN') {
        // A non-blocking pipe that is full: let the stream queue the rest.
        process.stdout.write(buffer);
        return;
      }
      throw error;
    }
    buffer = buffer.subarray(written);
  }
}

/**
 * Points commander's stdout output (help, version) at `writeStdout` for a command and all its
 * subcommands, and answers its terminal questions without creating `process.stdout` for a pipe.
 */
export function directHelpOutput(command: Command): void {
  const forced = process.env.FORCE_COLOR !== undefined || process.env.CLICOLOR_FORCE !== undefined;
  const defaults = command.configureOutput();
  command.configureOutput({
    writeOut: writeStdout,
    // undefined (off a terminal) makes commander wrap at its default width, as it does by itself.
    getOutHelpWidth: () => (stdoutMayBeTerminal() ? defaults.getOutHelpWidth?.() : undefined) as number,
    getOutHasColors: () => (stdoutMayBeTerminal() || forced ? (defaults.getOutHasColors?.() ?? false) : false),
  });
  for (const sub of command.commands) directHelpOutput(sub);
}
