# bash completion for agentctl. Generated from its command definitions by `agentctl completion bash`: do not edit.
# Install: agentctl completion bash > ~/.local/share/bash-completion/completions/agentctl
#      or: source <(agentctl completion bash)    (in ~/.bashrc)

# The canonical name of subcommand $2 of command path $1 (nothing if $2 is not one).
_agentctl__child() {
  case "$1:$2" in
    ':agents') echo 'agents' ;;
    ':tasks') echo 'tasks' ;;
    ':persistent') echo 'persistent' ;;
    ':plan') echo 'plan' ;;
    ':apply') echo 'apply' ;;
    ':export') echo 'export' ;;
    ':schedule-preview') echo 'schedule-preview' ;;
    ':auth') echo 'auth' ;;
    ':config') echo 'config' ;;
    ':api') echo 'api' ;;
    ':emulator') echo 'emulator' ;;
    ':webhook-listen') echo 'webhook-listen' ;;
    ':mcp') echo 'mcp' ;;
    ':doctor') echo 'doctor' ;;
    ':conformance') echo 'conformance' ;;
    ':version') echo 'version' ;;
    ':completion') echo 'completion' ;;
    ':help') echo 'help' ;;
    'agents:list') echo 'list' ;;
    'agents:create') echo 'create' ;;
    'agents:get') echo 'get' ;;
    'agents:update') echo 'update' ;;
    'agents:replace') echo 'replace' ;;
    'agents:delete') echo 'delete' ;;
    'tasks:list') echo 'list' ;;
    'tasks:create') echo 'create' ;;
    'tasks:get') echo 'get' ;;
    'tasks:update') echo 'update' ;;
    'tasks:replace') echo 'replace' ;;
    'tasks:delete') echo 'delete' ;;
    'tasks:cancel') echo 'cancel' ;;
    'tasks:result') echo 'result' ;;
    'tasks:run-batch') echo 'run-batch' ;;
    'tasks:batch-report') echo 'batch-report' ;;
    'tasks:wait') echo 'wait' ;;
    'persistent:list') echo 'list' ;;
    'persistent:get') echo 'get' ;;
    'persistent:create') echo 'create' ;;
    'persistent:update') echo 'update' ;;
    'persistent:replace') echo 'replace' ;;
    'persistent:delete') echo 'delete' ;;
    'persistent:activate') echo 'activate' ;;
    'persistent:deactivate') echo 'deactivate' ;;
    'persistent:message') echo 'message' ;;
    'persistent:chat') echo 'chat' ;;
    'persistent:wait-event') echo 'wait-event' ;;
    'persistent:status') echo 'status' ;;
    'persistent:timeline') echo 'timeline' ;;
    'persistent:web-tasks') echo 'web-tasks' ;;
    'persistent:links') echo 'links' ;;
    'persistent:link') echo 'link' ;;
    'persistent:unlink') echo 'unlink' ;;
    'persistent:files') echo 'files' ;;
    'persistent:upload') echo 'upload' ;;
    'persistent:download') echo 'download' ;;
    'persistent:settings') echo 'settings' ;;
    'persistent:trace') echo 'trace' ;;
    'auth:login') echo 'login' ;;
    'auth:status') echo 'status' ;;
    'auth:logout') echo 'logout' ;;
    'auth:token') echo 'token' ;;
    'config:get') echo 'get' ;;
    'config:set') echo 'set' ;;
    'config:unset') echo 'unset' ;;
    'config:list') echo 'list' ;;
    'config:path') echo 'path' ;;
    'emulator:check') echo 'check' ;;
    'webhook-listen:replay') echo 'replay' ;;
  esac
}

# The subcommands of command path $1.
_agentctl__subcommands() {
  case "$1" in
    '') echo 'agents tasks persistent plan apply export schedule-preview auth config api emulator webhook-listen mcp doctor conformance version completion help' ;;
    'agents') echo 'list create get update replace delete' ;;
    'tasks') echo 'list create get update replace delete cancel result run-batch batch-report wait' ;;
    'persistent') echo 'list get create update replace delete activate deactivate message chat wait-event status timeline web-tasks links link unlink files upload download settings trace' ;;
    'auth') echo 'login status logout token' ;;
    'config') echo 'get set unset list path' ;;
    'emulator') echo 'check' ;;
    'webhook-listen') echo 'replay' ;;
  esac
}

# Every flag accepted at command path $1, global ones included.
_agentctl__flags() {
  case "$1" in
    '') echo '-V --version --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response -h --help' ;;
    'agents') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'agents list') echo '--page --page-size --all -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'agents create') echo '--name -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'agents get') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'agents update') echo '--name -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'agents replace') echo '--name -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'agents delete') echo '-y --yes -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks list') echo '--status --watch --page --page-size --all --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks create') echo '--prompt-file --output-schema --secret --secrets-file --secret-env --webhook --wait --follow --interval --id-only --webhook-listen --public-url --listen-host --listen-port --fallback-interval --max-outage --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks get') echo '--watch --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks update') echo '--prompt-file --output-schema --secret --secrets-file --secret-env --webhook --prompt --no-webhook --credits-cost --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks replace') echo '--prompt-file --output-schema --secret --secrets-file --secret-env --webhook --credits-cost --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks delete') echo '-y --yes --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks cancel') echo '--agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks result') echo '--check-schema --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks run-batch') echo '--concurrency --follow --interval --max-outage --ledger --shard --shard-total --max-rate --retry-unknown --webhook-listen --public-url --listen-host --listen-port --fallback-interval -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks batch-report') echo '--input --junit --annotations -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'tasks wait') echo '--interval --max-outage --any --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent list') echo '--page --page-size --all -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent get') echo '-w --web -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent create') echo '--name --charter --charter-file --schedule --no-schedule --active --paused --life-state --whitelist-policy --preferred-contact --proactive --no-proactive --template-code --mcp-server -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent update') echo '--name --charter --charter-file --schedule --no-schedule --active --paused --life-state --whitelist-policy --preferred-contact --proactive --no-proactive --template-code --mcp-server -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent replace') echo '--name --charter --charter-file --schedule --no-schedule --active --paused --life-state --whitelist-policy --preferred-contact --proactive --no-proactive --template-code --mcp-server -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent delete') echo '-y --yes -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent activate') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent deactivate') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent message') echo '--channel --sender --recipient --subject --metadata -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent chat') echo '--channel --sender --reply-timeout -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent wait-event') echo '--type --from --channel --after -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent status') echo '--watch -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent timeline') echo '--direction --cursor --limit --all -f --follow -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent web-tasks') echo '--status --limit -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent links') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent link') echo '--messages-per-window --window-hours -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent unlink') echo '--link -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent files') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent upload') echo '--path --mime-type --overwrite -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent download') echo '-o --output --clobber -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent settings') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'persistent trace') echo '--limit --recent-minutes --since --until --cursor --include --detail --eval-run -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'plan') echo '--dir --check --prune --prune-agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'apply') echo '--dir -y --yes --prune --prune-agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'export') echo '--dir --from-portable -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'schedule-preview') echo '--count --from --tz --agent -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'auth') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'auth login') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'auth status') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'auth logout') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'auth token') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'config') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'config get') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'config set') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'config unset') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'config list') echo '--all-profiles -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'config path') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'api') echo '-X --method -f --raw-field -F --field -H --header -i --include --input --data --paginate -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'emulator') echo '--port --host --task-duration --latency --faults --seed --allowed-host --agent-limit --task-credits --state -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'emulator check') echo '--ignore --junit -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'webhook-listen') echo '--host --port --path --print-url --output --forward-to --task --count --once --max-body --drain-timeout -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'webhook-listen replay') echo '--forward-to --task --since -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'mcp') echo '--http --allow-secret-env --agents-dir --secrets-dir --read-only --toolsets --tools --exclude-tools --tool-prefix --wait --max-wait -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'doctor') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'conformance') echo '--allow-writes -y --yes --junit --ignore -h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'version') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'completion') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
    'help') echo '-h --help --base-url --insecure-http --api-key --api-key-file --profile --json --jsonl --fields --jq --no-color -q --quiet --verbose --timeout --record --max-response' ;;
  esac
}

# For flag $2 at command path $1: "ARITY KIND [VALUES...]" if it takes values (KIND: choice, file, any).
_agentctl__option() {
  case "$1:$2" in
    ':--base-url') echo '1 any' ;;
    ':--api-key') echo '1 any' ;;
    ':--api-key-file') echo '1 file' ;;
    ':--profile') echo '1 any' ;;
    ':--fields') echo '1 any' ;;
    ':--jq') echo '1 any' ;;
    ':--timeout') echo '1 any' ;;
    ':--record') echo '1 file' ;;
    ':--max-response') echo '1 any' ;;
    'agents list:--page') echo '1 any' ;;
    'agents list:--page-size') echo '1 any' ;;
    'agents create:--name') echo '1 any' ;;
    'agents update:--name') echo '1 any' ;;
    'agents replace:--name') echo '1 any' ;;
    'tasks list:--status') echo '1 choice pending in_progress completed failed cancelled' ;;
    'tasks list:--watch') echo '1 any' ;;
    'tasks list:--page') echo '1 any' ;;
    'tasks list:--page-size') echo '1 any' ;;
    'tasks list:--agent') echo '1 any' ;;
    'tasks create:--prompt-file') echo '1 file' ;;
    'tasks create:--output-schema') echo '1 file' ;;
    'tasks create:--secret') echo '2 any' ;;
    'tasks create:--secrets-file') echo '1 file' ;;
    'tasks create:--secret-env') echo '2 any' ;;
    'tasks create:--webhook') echo '1 any' ;;
    'tasks create:--wait') echo '1 any' ;;
    'tasks create:--interval') echo '1 any' ;;
    'tasks create:--public-url') echo '1 any' ;;
    'tasks create:--listen-host') echo '1 any' ;;
    'tasks create:--listen-port') echo '1 any' ;;
    'tasks create:--fallback-interval') echo '1 any' ;;
    'tasks create:--max-outage') echo '1 any' ;;
    'tasks create:--agent') echo '1 any' ;;
    'tasks get:--watch') echo '1 any' ;;
    'tasks get:--agent') echo '1 any' ;;
    'tasks update:--prompt-file') echo '1 file' ;;
    'tasks update:--output-schema') echo '1 file' ;;
    'tasks update:--secret') echo '2 any' ;;
    'tasks update:--secrets-file') echo '1 file' ;;
    'tasks update:--secret-env') echo '2 any' ;;
    'tasks update:--webhook') echo '1 any' ;;
    'tasks update:--prompt') echo '1 any' ;;
    'tasks update:--credits-cost') echo '1 any' ;;
    'tasks update:--agent') echo '1 any' ;;
    'tasks replace:--prompt-file') echo '1 file' ;;
    'tasks replace:--output-schema') echo '1 file' ;;
    'tasks replace:--secret') echo '2 any' ;;
    'tasks replace:--secrets-file') echo '1 file' ;;
    'tasks replace:--secret-env') echo '2 any' ;;
    'tasks replace:--webhook') echo '1 any' ;;
    'tasks replace:--credits-cost') echo '1 any' ;;
    'tasks replace:--agent') echo '1 any' ;;
    'tasks delete:--agent') echo '1 any' ;;
    'tasks cancel:--agent') echo '1 any' ;;
    'tasks result:--agent') echo '1 any' ;;
    'tasks run-batch:--concurrency') echo '1 any' ;;
    'tasks run-batch:--interval') echo '1 any' ;;
    'tasks run-batch:--max-outage') echo '1 any' ;;
    'tasks run-batch:--ledger') echo '1 file' ;;
    'tasks run-batch:--shard') echo '1 any' ;;
    'tasks run-batch:--shard-total') echo '1 any' ;;
    'tasks run-batch:--max-rate') echo '1 any' ;;
    'tasks run-batch:--public-url') echo '1 any' ;;
    'tasks run-batch:--listen-host') echo '1 any' ;;
    'tasks run-batch:--listen-port') echo '1 any' ;;
    'tasks run-batch:--fallback-interval') echo '1 any' ;;
    'tasks batch-report:--input') echo '1 file' ;;
    'tasks batch-report:--junit') echo '1 file' ;;
    'tasks batch-report:--annotations') echo '1 choice github none' ;;
    'tasks wait:--interval') echo '1 any' ;;
    'tasks wait:--max-outage') echo '1 any' ;;
    'tasks wait:--agent') echo '1 any' ;;
    'persistent list:--page') echo '1 any' ;;
    'persistent list:--page-size') echo '1 any' ;;
    'persistent create:--name') echo '1 any' ;;
    'persistent create:--charter') echo '1 any' ;;
    'persistent create:--charter-file') echo '1 file' ;;
    'persistent create:--schedule') echo '1 any' ;;
    'persistent create:--life-state') echo '1 choice active expired' ;;
    'persistent create:--whitelist-policy') echo '1 choice default manual' ;;
    'persistent create:--preferred-contact') echo '1 any' ;;
    'persistent create:--template-code') echo '1 any' ;;
    'persistent create:--mcp-server') echo '1 any' ;;
    'persistent update:--name') echo '1 any' ;;
    'persistent update:--charter') echo '1 any' ;;
    'persistent update:--charter-file') echo '1 file' ;;
    'persistent update:--schedule') echo '1 any' ;;
    'persistent update:--life-state') echo '1 choice active expired' ;;
    'persistent update:--whitelist-policy') echo '1 choice default manual' ;;
    'persistent update:--preferred-contact') echo '1 any' ;;
    'persistent update:--template-code') echo '1 any' ;;
    'persistent update:--mcp-server') echo '1 any' ;;
    'persistent replace:--name') echo '1 any' ;;
    'persistent replace:--charter') echo '1 any' ;;
    'persistent replace:--charter-file') echo '1 file' ;;
    'persistent replace:--schedule') echo '1 any' ;;
    'persistent replace:--life-state') echo '1 choice active expired' ;;
    'persistent replace:--whitelist-policy') echo '1 choice default manual' ;;
    'persistent replace:--preferred-contact') echo '1 any' ;;
    'persistent replace:--template-code') echo '1 any' ;;
    'persistent replace:--mcp-server') echo '1 any' ;;
    'persistent message:--channel') echo '1 choice email sms slack discord web other' ;;
    'persistent message:--sender') echo '1 any' ;;
    'persistent message:--recipient') echo '1 any' ;;
    'persistent message:--subject') echo '1 any' ;;
    'persistent message:--metadata') echo '1 any' ;;
    'persistent chat:--channel') echo '1 choice web email' ;;
    'persistent chat:--sender') echo '1 any' ;;
    'persistent chat:--reply-timeout') echo '1 any' ;;
    'persistent wait-event:--type') echo '1 choice message steps thinking plan' ;;
    'persistent wait-event:--from') echo '1 choice agent human_user external system' ;;
    'persistent wait-event:--channel') echo '1 any' ;;
    'persistent wait-event:--after') echo '1 any' ;;
    'persistent status:--watch') echo '1 any' ;;
    'persistent timeline:--direction') echo '1 choice initial older newer' ;;
    'persistent timeline:--cursor') echo '1 any' ;;
    'persistent timeline:--limit') echo '1 any' ;;
    'persistent web-tasks:--status') echo '1 choice pending in_progress completed failed cancelled' ;;
    'persistent web-tasks:--limit') echo '1 any' ;;
    'persistent link:--messages-per-window') echo '1 any' ;;
    'persistent link:--window-hours') echo '1 any' ;;
    'persistent unlink:--link') echo '1 any' ;;
    'persistent upload:--path') echo '1 file' ;;
    'persistent upload:--mime-type') echo '1 any' ;;
    'persistent download:-o') echo '1 file' ;;
    'persistent download:--output') echo '1 file' ;;
    'persistent trace:--limit') echo '1 any' ;;
    'persistent trace:--recent-minutes') echo '1 any' ;;
    'persistent trace:--since') echo '1 any' ;;
    'persistent trace:--until') echo '1 any' ;;
    'persistent trace:--cursor') echo '1 any' ;;
    'persistent trace:--include') echo '1 any' ;;
    'persistent trace:--detail') echo '1 choice summary standard verbose' ;;
    'persistent trace:--eval-run') echo '1 any' ;;
    'plan:--dir') echo '1 any' ;;
    'plan:--prune-agent') echo '1 any' ;;
    'apply:--dir') echo '1 any' ;;
    'apply:--prune-agent') echo '1 any' ;;
    'export:--dir') echo '1 any' ;;
    'export:--from-portable') echo '1 any' ;;
    'schedule-preview:--count') echo '1 any' ;;
    'schedule-preview:--from') echo '1 any' ;;
    'schedule-preview:--tz') echo '1 any' ;;
    'schedule-preview:--agent') echo '1 any' ;;
    'api:-X') echo '1 any' ;;
    'api:--method') echo '1 any' ;;
    'api:-f') echo '1 any' ;;
    'api:--raw-field') echo '1 any' ;;
    'api:-F') echo '1 any' ;;
    'api:--field') echo '1 any' ;;
    'api:-H') echo '1 any' ;;
    'api:--header') echo '1 any' ;;
    'api:--input') echo '1 file' ;;
    'api:--data') echo '1 any' ;;
    'emulator:--port') echo '1 any' ;;
    'emulator:--host') echo '1 any' ;;
    'emulator:--task-duration') echo '1 any' ;;
    'emulator:--latency') echo '1 any' ;;
    'emulator:--faults') echo '1 any' ;;
    'emulator:--seed') echo '1 any' ;;
    'emulator:--allowed-host') echo '1 any' ;;
    'emulator:--agent-limit') echo '1 any' ;;
    'emulator:--task-credits') echo '1 any' ;;
    'emulator:--state') echo '1 file' ;;
    'emulator check:--ignore') echo '1 any' ;;
    'emulator check:--junit') echo '1 file' ;;
    'webhook-listen:--host') echo '1 any' ;;
    'webhook-listen:--port') echo '1 any' ;;
    'webhook-listen:--path') echo '1 any' ;;
    'webhook-listen:--output') echo '1 file' ;;
    'webhook-listen:--forward-to') echo '1 any' ;;
    'webhook-listen:--task') echo '1 any' ;;
    'webhook-listen:--count') echo '1 any' ;;
    'webhook-listen:--max-body') echo '1 any' ;;
    'webhook-listen:--drain-timeout') echo '1 any' ;;
    'webhook-listen replay:--forward-to') echo '1 any' ;;
    'webhook-listen replay:--task') echo '1 any' ;;
    'webhook-listen replay:--since') echo '1 any' ;;
    'mcp:--http') echo '1 any' ;;
    'mcp:--allow-secret-env') echo '1 any' ;;
    'mcp:--agents-dir') echo '1 any' ;;
    'mcp:--secrets-dir') echo '1 any' ;;
    'mcp:--toolsets') echo '1 any' ;;
    'mcp:--tools') echo '1 any' ;;
    'mcp:--exclude-tools') echo '1 any' ;;
    'mcp:--tool-prefix') echo '1 any' ;;
    'mcp:--wait') echo '1 any' ;;
    'mcp:--max-wait') echo '1 any' ;;
    'conformance:--junit') echo '1 file' ;;
    'conformance:--ignore') echo '1 any' ;;
    *:'--base-url') echo '1 any' ;;
    *:'--api-key') echo '1 any' ;;
    *:'--api-key-file') echo '1 file' ;;
    *:'--profile') echo '1 any' ;;
    *:'--fields') echo '1 any' ;;
    *:'--jq') echo '1 any' ;;
    *:'--timeout') echo '1 any' ;;
    *:'--record') echo '1 file' ;;
    *:'--max-response') echo '1 any' ;;
  esac
}

# For positional argument number $2 (from 0) of command path $1: "choice VALUES..." if it has fixed values.
_agentctl__argument() {
  [[ $1 == 'config get' ]] && (( $2 == 0 )) && { echo 'choice base-url api-key output timeout insecure-http'; return; }
  [[ $1 == 'config set' ]] && (( $2 == 0 )) && { echo 'choice base-url api-key output timeout insecure-http'; return; }
  [[ $1 == 'config unset' ]] && (( $2 == 0 )) && { echo 'choice base-url api-key output timeout insecure-http'; return; }
  [[ $1 == 'completion' ]] && (( $2 == 0 )) && { echo 'choice bash zsh fish powershell'; return; }
  return 0
}

# Sets COMPREPLY for the value of a flag or argument: $1 is its spec ("ARITY KIND [VALUES...]"),
# $2 the word being completed, $3 a prefix to keep in front of each candidate ("--flag=").
_agentctl__values() {
  local cur=$2 prefix=$3 kind values i IFS=$' \t\n'
  read -r _ kind values <<<"$1"
  case "$kind" in
    choice) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
    file)
      compopt -o filenames 2>/dev/null
      IFS=$'\n'
      COMPREPLY=($(compgen -f -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
  if [[ -n $prefix ]]; then
    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]="$prefix${COMPREPLY[i]}"; done
  fi
}

_agentctl() {
  local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]}
  local path='' word child spec i=1 rem=0 pos=0 dashdash=0 opt=''
  # Walk the words before the cursor: follow subcommands, skip flag values, count positionals.
  while (( i < cword )); do
    word=${COMP_WORDS[i]}
    if (( rem > 0 )); then
      (( rem-- ))
    elif (( !dashdash )) && [[ $word == -- ]]; then
      dashdash=1
    elif (( !dashdash )) && [[ $word == -* ]]; then
      rem=0
      if [[ $word != *=* ]]; then
        spec=$(_agentctl__option "$path" "$word")
        if [[ -n $spec ]]; then
          rem=${spec%% *} opt=$word
          # --flag=value: bash splits it into "--flag" "=" "value".
          [[ ${COMP_WORDS[i+1]} == = ]] && (( i++ ))
        fi
      fi
    else
      child=''
      (( !dashdash )) && child=$(_agentctl__child "$path" "$word")
      if [[ -n $child ]]; then
        path="${path:+$path }$child" pos=0
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
    _agentctl__values "$(_agentctl__option "$path" "$opt")" "$cur" ''
    return 0
  fi
  # --flag=value in one word (when = is not a word break).
  if (( !dashdash )) && [[ $cur == --*=* ]]; then
    spec=$(_agentctl__option "$path" "${cur%%=*}")
    [[ -n $spec ]] && _agentctl__values "$spec" "${cur#*=}" "${cur%%=*}="
    return 0
  fi
  if (( !dashdash )) && [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_agentctl__flags "$path")" -- "$cur"))
    return 0
  fi
  local subs
  subs=$(_agentctl__subcommands "$path")
  if [[ -n $subs ]] && (( !dashdash )); then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
    return 0
  fi
  spec=$(_agentctl__argument "$path" "$pos")
  [[ -n $spec ]] && _agentctl__values "0 $spec" "$cur" ''
  return 0
}

complete -F _agentctl agentctl
