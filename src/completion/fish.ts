// The fish completion script: `complete` lines whose conditions ask a small function where on the
// command line the cursor is. All data embedded; nothing calls back into node.
import { allCommands, flagsOf, type CompletionModel, type OptionSpec } from './model.js';

/** Text in single quotes for fish. */
export function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function sameOption(a: OptionSpec, b: OptionSpec): boolean {
  return a.long === b.long && a.short === b.short;
}

function completeOption(name: string, option: OptionSpec, condition: string | undefined): string {
  const parts = [`complete -c ${name}`];
  if (condition) parts.push(`-n ${fishQuote(condition)}`);
  if (option.short) parts.push(`-s ${option.short.replace(/^-/, '')}`);
  if (option.long) parts.push(`-l ${option.long.replace(/^--/, '')}`);
  if (option.arity > 0) {
    if (option.choices) parts.push('-x', `-a ${fishQuote(option.choices.join(' '))}`);
    else if (option.file) parts.push('-r', '-F');
    else parts.push('-x');
  }
  parts.push(`-d ${fishQuote(option.description)}`);
  return parts.join(' ');
}

export function fishScript(model: CompletionModel): string {
  const name = model.name;
  const fn = `__${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const commands = allCommands(model);
  const at = (path: string[]): string => [`${fn}_at`, ...path].join(' ');

  const children = commands.flatMap((command) =>
    command.subcommands.flatMap((sub) => [sub.name, ...sub.aliases].map((word) => `        case ${fishQuote(`${command.path.join(' ')}:${word}`)}\n            echo ${sub.name}`)),
  );
  const arities = [
    ...commands.flatMap((command) =>
      command.options.filter((option) => option.arity > 0).map((option) => [command.path.join(' ') + ':', option] as const),
    ),
    ...model.globals.filter((option) => option.arity > 0).map((option) => ['*:', option] as const),
  ].map(([prefix, option]) => `        case ${flagsOf(option).map((flag) => (prefix === '*:' ? `'*:${flag}'` : fishQuote(prefix + flag))).join(' ')}\n            echo ${option.arity}`);

  const lines: string[] = [];
  for (const command of commands) {
    for (const sub of command.subcommands) {
      lines.push(`complete -c ${name} -n ${fishQuote(at(command.path))} -a ${fishQuote(sub.name)} -d ${fishQuote(sub.description)}`);
    }
    for (const option of command.options) {
      if (command.path.length > 0 || !model.globals.some((global) => sameOption(global, option))) {
        lines.push(completeOption(name, option, at(command.path)));
      }
    }
    command.arguments.forEach((argument, index) => {
      if (!argument.choices) return;
      const condition = `${fn}_arg ${argument.variadic ? `${index}+` : index} ${command.path.join(' ')}`.trim();
      lines.push(`complete -c ${name} -n ${fishQuote(condition)} -a ${fishQuote(argument.choices.join(' '))} -d ${fishQuote(argument.name)}`);
    });
  }
  for (const option of model.globals) lines.push(completeOption(name, option, undefined));

  return `# fish completion for ${name}. Generated from its command definitions by \`${name} completion fish\`: do not edit.
# Install: ${name} completion fish > ~/.config/fish/completions/${name}.fish

# The canonical name of subcommand $argv[2] of command path $argv[1] (nothing if it is not one).
function ${fn}_child
    switch "$argv[1]:$argv[2]"
${children.join('\n')}
    end
end

# How many words follow flag $argv[2] at command path $argv[1].
function ${fn}_arity
    switch "$argv[1]:$argv[2]"
${arities.join('\n')}
        case '*'
            echo 0
    end
end

# Two lines: the command path before the cursor ("tasks list") and how many positional arguments it has.
function ${fn}_state
    set -l line (commandline -pc)
    if test "$line" = "$${fn}_state_key"
        printf '%s\\n' $${fn}_state_value
        return
    end
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path
    set -l pos 0
    set -l skip 0
    set -l dashdash 0
    for token in $tokens
        if test $skip -gt 0
            set skip (math $skip - 1)
        else if test $dashdash -eq 0; and test "$token" = '--'
            set dashdash 1
        else if test $dashdash -eq 0; and string match -q -- '-*' $token
            string match -q -- '*=*' $token; or set skip (${fn}_arity "$path" $token)
        else
            set -l child
            test $dashdash -eq 0; and set child (${fn}_child "$path" $token)
            if test -n "$child"
                set path (string trim -- "$path $child")
                set pos 0
            else
                set pos (math $pos + 1)
            end
        end
    end
    set -g ${fn}_state_key $line
    set -g ${fn}_state_value "$path" $pos
    printf '%s\\n' "$path" $pos
end

# True when the cursor is right below command path $argv (no words: the top level).
function ${fn}_at
    set -l state (${fn}_state)
    test "$state[1]" = "$argv"
end

# True when the cursor is on positional argument $argv[1] (from 0; "N+" for N or later) of command path $argv[2..].
function ${fn}_arg
    set -l state (${fn}_state)
    set -l at $argv[1]
    set -e argv[1]
    test "$state[1]" = "$argv"; or return 1
    set -l n (string replace '+' '' -- $at)
    if string match -q -- '*+' $at
        test $state[2] -ge $n
    else
        test $state[2] -eq $n
    end
end

# No file names unless a flag takes a file.
complete -c ${name} -f
${lines.join('\n')}
`;
}
