import { Option } from 'commander';

/** Accumulates a repeatable option's values: `.option('--mcp-server <uuid>', '...', collect)`. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * An option with a fixed set of values, e.g. `choiceOption('--status <status>', '...', TASK_STATUSES)`:
 * help lists them as `(choices: ...)`, commander rejects anything else (exit 2), and the shell
 * completion scripts offer them. Add it with `command.addOption(...)`.
 */
export function choiceOption(flags: string, description: string, choices: readonly string[], defaultValue?: string): Option {
  const option = new Option(flags, description).choices(choices);
  return defaultValue === undefined ? option : option.default(defaultValue);
}
