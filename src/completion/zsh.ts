// The zsh completion script (`_agentctl`): one function per command built on `_arguments`, all data
// embedded. Works from a directory in $fpath (autoloaded) and when sourced after compinit.
import { optionsAt, type ArgumentSpec, type CommandSpec, type CompletionModel, type OptionSpec } from './model.js';

/** Text in single quotes for zsh. */
export function zshQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Escapes what `_arguments` treats specially inside a `[description]` or a `:message:`. */
function escapeSpec(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\[/g, '\\[').replace(/\]/g, '\\]').replace(/:/g, '\\:');
}

function valueAction(option: OptionSpec): string {
  if (option.choices) return `(${option.choices.map((choice) => choice.replace(/([\\\s()'"$`])/g, '\\$1')).join(' ')})`;
  return option.file ? '_files' : ' ';
}

/** `_arguments` specs for one option: one per spelling, excluding each other unless repeatable. */
function optionSpecs(option: OptionSpec): string[] {
  const spellings = [option.short, option.long].filter((flag): flag is string => flag !== undefined);
  const exclusion = option.repeatable ? '*' : spellings.length > 1 ? `(${spellings.join(' ')})` : '';
  const description = `[${escapeSpec(option.description)}]`;
  return spellings.map((flag) => {
    if (option.arity === 0) return zshQuote(`${exclusion}${flag}${description}`);
    // `--flag=`: the value may follow in the same word after "=" or in the next word; `-f+` likewise.
    const takes = flag.startsWith('--') ? '=' : '+';
    const values = option.valueNames.map((name, index) => `:${escapeSpec(name)}:${index === 0 ? valueAction(option) : ' '}`).join('');
    return zshQuote(`${exclusion}${flag}${takes}${description}${values}`);
  });
}

function argumentSpec(argument: ArgumentSpec, index: number): string {
  const action = argument.choices ? `(${argument.choices.join(' ')})` : ' ';
  const message = escapeSpec(argument.description ? `${argument.name}: ${argument.description}` : argument.name);
  if (argument.variadic) return zshQuote(`*:${message}:${action}`);
  return zshQuote(`${index + 1}${argument.required ? '' : ':'}:${message}:${action}`);
}

function functionName(model: CompletionModel, command: CommandSpec): string {
  return ['', model.name, ...command.path].map((part) => part.replace(/[^A-Za-z0-9_]/g, '_')).join('_').replace(/^_+/, '_');
}

function commandFunction(model: CompletionModel, command: CommandSpec): string {
  const name = functionName(model, command);
  const specs = optionsAt(model, command).flatMap(optionSpecs);
  const lines = (items: string[]): string => items.map((item) => `    ${item} \\`).join('\n');
  const label = [model.name, ...command.path].join(' ');
  if (command.subcommands.length === 0) {
    return `${name}() {
  _arguments -S \\
${lines([...specs, ...command.arguments.map(argumentSpec)])}
    && return 0
  return 1
}`;
  }
  const described = command.subcommands.flatMap((sub) =>
    [sub.name, ...sub.aliases].map((word) => zshQuote(`${word.replace(/:/g, '\\:')}:${sub.description}`)),
  );
  const cases = command.subcommands.map(
    (sub) => `        ${[sub.name, ...sub.aliases].map(zshQuote).join('|')}) ${functionName(model, sub)} && ret=0 ;;`,
  );
  return `${name}() {
  local curcontext=$curcontext state state_descr line ret=1
  typeset -A opt_args
  _arguments -C -S \\
${lines([...specs, zshQuote(': :->command'), zshQuote('*:: :->argument')])}
    && ret=0
  case $state in
    command)
      local -a commands
      commands=(
${described.map((item) => `        ${item}`).join('\n')}
      )
      _describe -t commands ${zshQuote(`${label} command`)} commands && ret=0
      ;;
    argument)
      curcontext=\${curcontext%:*:*}:${[model.name, ...command.path].join('-')}-$words[1]:
      case $words[1] in
${cases.join('\n')}
      esac
      ;;
  esac
  return ret
}`;
}

export function zshScript(model: CompletionModel): string {
  const commands: CommandSpec[] = [];
  const visit = (command: CommandSpec): void => {
    commands.push(command);
    command.subcommands.forEach(visit);
  };
  visit(model.root);
  const root = functionName(model, model.root);
  return `#compdef ${model.name}
# zsh completion for ${model.name}. Generated from its command definitions by \`${model.name} completion zsh\`: do not edit.
# Install: ${model.name} completion zsh > "\${fpath[1]}/_${model.name}"   (any directory in $fpath; then restart zsh)
#      or: source <(${model.name} completion zsh)    (in ~/.zshrc, after compinit)

${commands.map((command) => commandFunction(model, command)).join('\n\n')}

if [[ \${funcstack[1]-} == ${root} ]]; then
  ${root} "$@"
else
  compdef ${root} ${model.name}
fi
`;
}
