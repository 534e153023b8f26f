# Runs zsh's real completion system on a command line and prints the candidates, one per line.
# usage: zsh -f zsh-complete.zsh DIR 'agentctl tasks ' [DUMP]   (DIR holds the _agentctl completion file)
#        zsh -f zsh-complete.zsh DIR --dump DUMP   writes compinit's dump file for DIR and exits
# An interactive zsh runs under zpty (a pseudo-terminal) with compinit; Tab is bound to
# complete-word, and compadd is wrapped to print what the completion functions add, between markers.
# With DUMP, compinit loads the dump file (as a user's ~/.zcompdump) instead of reading every
# completion function on fpath: that read was ~0.4 s of CPU per run.
zmodload zsh/zpty || { print -u2 'zsh/zpty is not available'; exit 3 }
zmodload zsh/zselect || { print -u2 'zsh/zselect is not available'; exit 3 }

local dir=$1 line=$2 dump=$3
if [[ $line == --dump ]]; then
  fpath=($dir $fpath)
  autoload -Uz compinit && compinit -u -d $dump
  exit
fi
zpty completion zsh -f -i
zpty -w completion "PROMPT='' RPROMPT='' PS2=''; unsetopt zle_bracketed_paste 2>/dev/null; fpath=(${(q)dir} \$fpath)"
if [[ -n $dump ]]; then
  zpty -w completion "autoload -Uz compinit && compinit -u -C -d ${(q)dump}"
else
  zpty -w completion 'autoload -Uz compinit && compinit -u -D'
fi
zpty -w completion "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false; zstyle ':completion:*' menu no"
zpty -w completion 'bindkey "^I" complete-word'
# The wrapper: calls that only compute (-O/-A/-D) are passed through; the others are matched
# against the word with -O, printed, and then really added.
zpty -w completion 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a __hits; builtin compadd -O __hits "$@"
  local __hit; for __hit in $__hits; do print -r -- "<<cand""idate>>$IPREFIX$__hit"; done
  builtin compadd "$@"
}'
zpty -w completion 'comppostfuncs=(__done); __done() { print -r -- "<<do""ne>>"; }'
zpty -w completion 'print -r -- "<<rea""dy>>"'

local out='' chunk
integer deadline=$(( SECONDS + 20 ))
while (( SECONDS < deadline )); do
  if zpty -r -t completion chunk; then out+=$chunk; else zselect -t 5; fi
  [[ $out == *'<<ready>>'* ]] && break
done
zpty -w -n completion "$line"$'\t'
local all=''
while (( SECONDS < deadline )); do
  if zpty -r -t completion chunk; then all+=$chunk; else zselect -t 5; fi
  [[ $all == *'<<done>>'* ]] && break
done
zpty -d completion
[[ $all == *'<<done>>'* ]] || { print -u2 "no completion output for: $line"; print -u2 -r -- "$all"; exit 4 }
local row
for row in ${(f)all}; do
  row=${row%$'\r'}
  # The first candidate shares its row with the echoed command line.
  [[ $row == *'<<candidate>>'* ]] && print -r -- ${row#*'<<candidate>>'}
done
exit 0
