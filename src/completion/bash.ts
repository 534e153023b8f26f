// The bash completion script: all data embedded as `case` tables, no call back into node.
import { allCommands, flagsOf, optionsAt, type CompletionModel, type OptionSpec } from './model.js';

/** A word in single quotes for bash. */
export function bashQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** "ARITY KIND [VALUES...]" for an option that takes a value (KIND: choice, file or any). */
function valueSpec(option: OptionSpec): string {
  if (option.choices) return `${option.arity} choice ${option.choices.join(' ')}`;
  return `${option.arity} ${option.file ? 'file' : 'any'}`;
}

export function bashScript(model: CompletionModel): string {
  const fn = `_${model.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const commands = allCommands(model);
  const key = (path: string[], word: string): string => bashQuote(`${path.join(' ')}:${word}`);

  const children = commands.flatMap((command) =>
    command.subcommands.flatMap((sub) => [sub.name, ...sub.aliases].map((name) => `    ${key(command.path, name)}) echo ${bashQuote(sub.name)} ;;`)),
  );
  const subcommands = commands
    .filter((command) => command.subcommands.length > 0)
    .map((command) => `    ${bashQuote(command.path.join(' '))}) echo ${bashQuote(command.subcommands.map((sub) => sub.name).join(' '))} ;;`);
  const flags = commands.map(
    (command) => `    ${bashQuote(command.path.join(' '))}) echo ${bashQuote(optionsAt(model, command).flatMap(flagsOf).join(' '))} ;;`,
  );
  const ownValues = commands.flatMap((command) =>
    command.options.filter((option) => option.arity > 0).flatMap((option) => flagsOf(option).map((flag) => `    ${key(command.path, flag)}) echo ${bashQuote(valueSpec(option))} ;;`)),
  );
  const globalValues = model.globals
    .filter((option) => option.arity > 0)
    .flatMap((option) => flagsOf(option).map((flag) => `    *:${bashQuote(flag)}) echo ${bashQuote(valueSpec(option))} ;;`));
  const argumentChoices = commands.flatMap((command) =>
    command.arguments.flatMap((argument, index) => {
      if (!argument.choices) return [];
      const test = argument.variadic ? `(( $2 >= ${index} ))` : `(( $2 == ${index} ))`;
      return [`  [[ $1 == ${bashQuote(command.path.join(' '))} ]] && ${test} && { echo ${bashQuote(`choice ${argument.choices.join(' ')}`)}; return; }`];
    }),
  );

  return `# bash completion for ${model.name}. Generated from its command definitions by \`${model.name} completion bash\`: do not edit.
# Install: ${model.name} completion bash > ~/.local/share/bash-completion/completions/${model.name}
#      or: source <(${model.name} completion bash)    (in ~/.bashrc)

# The canonical name of subcommand $2 of command path $1 (nothing if $2 is not one).
${fn}__child() {
  case "$1:$2" in
${children.join('\n')}
  esac
}

# The subcommands of command path $1.
${fn}__subcommands() {
  case "$1" in
${subcommands.join('\n')}
  esac
}

# Every flag accepted at command path $1, global ones included.
${fn}__flags() {
  case "$1" in
${flags.join('\n')}
  esac
}

# For flag $2 at command path $1: "ARITY KIND [VALUES...]" if it takes values (KIND: choice, file, any).
${fn}__option() {
  case "$1:$2" in
${[...ownValues, ...globalValues].join('\n')}
  esac
}

# For positional argument number $2 (from 0) of command path $1: "choice VALUES..." if it has fixed values.
${fn}__argument() {
${argumentChoices.join('\n')}
  return 0
}

# Sets COMPREPLY for the value of a flag or argument: $1 is its spec ("ARITY KIND [VALUES...]"),
# $2 the word being completed, $3 a prefix to keep in front of each candidate ("--flag=").
${fn}__values() {
  local cur=$2 prefix=$3 kind values i IFS=$' \\t\\n'
  read -r _ kind values <<<"$1"
  case "$kind" in
    choice) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
    file)
      compopt -o filenames 2>/dev/null
      IFS=$'\\n'
      COMPREPLY=($(compgen -f -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
  if [[ -n $prefix ]]; then
    for i in "\${!COMPREPLY[@]}"; do COMPREPLY[i]="$prefix\${COMPREPLY[i]}"; done
  fi
}

${fn}() {
  local cword=$COMP_CWORD cur=\${COMP_WORDS[COMP_CWORD]}
  local path='' word child spec i=1 rem=0 pos=0 dashdash=0 opt=''
  # Walk the words before the cursor: follow subcommands, skip flag values, count positionals.
  while (( i < cword )); do
    word=\${COMP_WORDS[i]}
    if (( rem > 0 )); then
      (( rem-- ))
    elif (( !dashdash )) && [[ $word == -- ]]; then
      dashdash=1
    elif (( !dashdash )) && [[ $word == -* ]]; then
      rem=0
      if [[ $word != *=* ]]; then
        spec=$(${fn}__option "$path" "$word")
        if [[ -n $spec ]]; then
          rem=\${spec%% *} opt=$word
          # --flag=value: bash splits it into "--flag" "=" "value".
          [[ \${COMP_WORDS[i+1]} == = ]] && (( i++ ))
        fi
      fi
    else
      child=''
      (( !dashdash )) && child=$(${fn}__child "$path" "$word")
      if [[ -n $child ]]; then
        path="\${path:+$path }$child" pos=0
      else
        (( pos++ ))
      fi
    fi
    (( i++ ))
  done

  COMPREPLY=()
  [[ $cur == = ]] && cur=''
  # The value of a flag.
  if (( rem > 0 )); then
    ${fn}__values "$(${fn}__option "$path" "$opt")" "$cur" ''
    return 0
  fi
  # --flag=value in one word (when = is not a word break).
  if (( !dashdash )) && [[ $cur == --*=* ]]; then
    spec=$(${fn}__option "$path" "\${cur%%=*}")
    [[ -n $spec ]] && ${fn}__values "$spec" "\${cur#*=}" "\${cur%%=*}="
    return 0
  fi
  if (( !dashdash )) && [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(${fn}__flags "$path")" -- "$cur"))
    return 0
  fi
  local subs
  subs=$(${fn}__subcommands "$path")
  if [[ -n $subs ]] && (( !dashdash )); then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return 0
  fi
  spec=$(${fn}__argument "$path" "$pos")
  [[ -n $spec ]] && ${fn}__values "0 $spec" "$cur" ''
  return 0
}

complete -F ${fn} ${model.name}
`;
}
