# fish completion for agentctl. Generated from its command definitions by `agentctl completion fish`: do not edit.
# Install: agentctl completion fish > ~/.config/fish/completions/agentctl.fish

# The canonical name of subcommand $argv[2] of command path $argv[1] (nothing if it is not one).
function __agentctl_child
    switch "$argv[1]:$argv[2]"
        case ':agents'
            echo agents
        case ':tasks'
            echo tasks
        case ':persistent'
            echo persistent
        case ':plan'
            echo plan
        case ':apply'
            echo apply
        case ':export'
            echo export
        case ':schedule-preview'
            echo schedule-preview
        case ':auth'
            echo auth
        case ':config'
            echo config
        case ':api'
            echo api
        case ':emulator'
            echo emulator
        case ':webhook-listen'
            echo webhook-listen
        case ':mcp'
            echo mcp
        case ':doctor'
            echo doctor
        case ':conformance'
            echo conformance
        case ':version'
            echo version
        case ':completion'
            echo completion
        case ':help'
            echo help
        case 'agents:list'
            echo list
        case 'agents:create'
            echo create
        case 'agents:get'
            echo get
        case 'agents:update'
            echo update
        case 'agents:replace'
            echo replace
        case 'agents:delete'
            echo delete
        case 'tasks:list'
            echo list
        case 'tasks:create'
            echo create
        case 'tasks:get'
            echo get
        case 'tasks:update'
            echo update
        case 'tasks:replace'
            echo replace
        case 'tasks:delete'
            echo delete
        case 'tasks:cancel'
            echo cancel
        case 'tasks:result'
            echo result
        case 'tasks:run-batch'
            echo run-batch
        case 'tasks:batch-report'
            echo batch-report
        case 'tasks:wait'
            echo wait
        case 'persistent:list'
            echo list
        case 'persistent:get'
            echo get
        case 'persistent:create'
            echo create
        case 'persistent:update'
            echo update
        case 'persistent:replace'
            echo replace
        case 'persistent:delete'
            echo delete
        case 'persistent:activate'
            echo activate
        case 'persistent:deactivate'
            echo deactivate
        case 'persistent:message'
            echo message
        case 'persistent:chat'
            echo chat
        case 'persistent:wait-event'
            echo wait-event
        case 'persistent:status'
            echo status
        case 'persistent:timeline'
            echo timeline
        case 'persistent:web-tasks'
            echo web-tasks
        case 'persistent:links'
            echo links
        case 'persistent:link'
            echo link
        case 'persistent:unlink'
            echo unlink
        case 'persistent:files'
            echo files
        case 'persistent:upload'
            echo upload
        case 'persistent:download'
            echo download
        case 'persistent:settings'
            echo settings
        case 'persistent:trace'
            echo trace
        case 'auth:login'
            echo login
        case 'auth:status'
            echo status
        case 'auth:logout'
            echo logout
        case 'auth:token'
            echo token
        case 'config:get'
            echo get
        case 'config:set'
            echo set
        case 'config:unset'
            echo unset
        case 'config:list'
            echo list
        case 'config:path'
            echo path
        case 'emulator:check'
            echo check
        case 'webhook-listen:replay'
            echo replay
    end
end

# How many words follow flag $argv[2] at command path $argv[1].
function __agentctl_arity
    switch "$argv[1]:$argv[2]"
        case ':--base-url'
            echo 1
        case ':--api-key'
            echo 1
        case ':--api-key-file'
            echo 1
        case ':--profile'
            echo 1
        case ':--fields'
            echo 1
        case ':--jq'
            echo 1
        case ':--timeout'
            echo 1
        case ':--record'
            echo 1
        case ':--max-response'
            echo 1
        case 'agents list:--page'
            echo 1
        case 'agents list:--page-size'
            echo 1
        case 'agents create:--name'
            echo 1
        case 'agents update:--name'
            echo 1
        case 'agents replace:--name'
            echo 1
        case 'tasks list:--status'
            echo 1
        case 'tasks list:--watch'
            echo 1
        case 'tasks list:--page'
            echo 1
        case 'tasks list:--page-size'
            echo 1
        case 'tasks list:--agent'
            echo 1
        case 'tasks create:--prompt-file'
            echo 1
        case 'tasks create:--output-schema'
            echo 1
        case 'tasks create:--secret'
            echo 2
        case 'tasks create:--secrets-file'
            echo 1
        case 'tasks create:--secret-env'
            echo 2
        case 'tasks create:--webhook'
            echo 1
        case 'tasks create:--wait'
            echo 1
        case 'tasks create:--interval'
            echo 1
        case 'tasks create:--public-url'
            echo 1
        case 'tasks create:--listen-host'
            echo 1
        case 'tasks create:--listen-port'
            echo 1
        case 'tasks create:--fallback-interval'
            echo 1
        case 'tasks create:--max-outage'
            echo 1
        case 'tasks create:--agent'
            echo 1
        case 'tasks get:--watch'
            echo 1
        case 'tasks get:--agent'
            echo 1
        case 'tasks update:--prompt-file'
            echo 1
        case 'tasks update:--output-schema'
            echo 1
        case 'tasks update:--secret'
            echo 2
        case 'tasks update:--secrets-file'
            echo 1
        case 'tasks update:--secret-env'
            echo 2
        case 'tasks update:--webhook'
            echo 1
        case 'tasks update:--prompt'
            echo 1
        case 'tasks update:--credits-cost'
            echo 1
        case 'tasks update:--agent'
            echo 1
        case 'tasks replace:--prompt-file'
            echo 1
        case 'tasks replace:--output-schema'
            echo 1
        case 'tasks replace:--secret'
            echo 2
        case 'tasks replace:--secrets-file'
            echo 1
        case 'tasks replace:--secret-env'
            echo 2
        case 'tasks replace:--webhook'
            echo 1
        case 'tasks replace:--credits-cost'
            echo 1
        case 'tasks replace:--agent'
            echo 1
        case 'tasks delete:--agent'
            echo 1
        case 'tasks cancel:--agent'
            echo 1
        case 'tasks result:--agent'
            echo 1
        case 'tasks run-batch:--concurrency'
            echo 1
        case 'tasks run-batch:--interval'
            echo 1
        case 'tasks run-batch:--max-outage'
            echo 1
        case 'tasks run-batch:--ledger'
            echo 1
        case 'tasks run-batch:--shard'
            echo 1
        case 'tasks run-batch:--shard-total'
            echo 1
        case 'tasks run-batch:--max-rate'
            echo 1
        case 'tasks run-batch:--public-url'
            echo 1
        case 'tasks run-batch:--listen-host'
            echo 1
        case 'tasks run-batch:--listen-port'
            echo 1
        case 'tasks run-batch:--fallback-interval'
            echo 1
        case 'tasks batch-report:--input'
            echo 1
        case 'tasks batch-report:--junit'
            echo 1
        case 'tasks batch-report:--annotations'
            echo 1
        case 'tasks wait:--interval'
            echo 1
        case 'tasks wait:--max-outage'
            echo 1
        case 'tasks wait:--agent'
            echo 1
        case 'persistent list:--page'
            echo 1
        case 'persistent list:--page-size'
            echo 1
        case 'persistent create:--name'
            echo 1
        case 'persistent create:--charter'
            echo 1
        case 'persistent create:--charter-file'
            echo 1
        case 'persistent create:--schedule'
            echo 1
        case 'persistent create:--life-state'
            echo 1
        case 'persistent create:--whitelist-policy'
            echo 1
        case 'persistent create:--preferred-contact'
            echo 1
        case 'persistent create:--template-code'
            echo 1
        case 'persistent create:--mcp-server'
            echo 1
        case 'persistent update:--name'
            echo 1
        case 'persistent update:--charter'
            echo 1
        case 'persistent update:--charter-file'
            echo 1
        case 'persistent update:--schedule'
            echo 1
        case 'persistent update:--life-state'
            echo 1
        case 'persistent update:--whitelist-policy'
            echo 1
        case 'persistent update:--preferred-contact'
            echo 1
        case 'persistent update:--template-code'
            echo 1
        case 'persistent update:--mcp-server'
            echo 1
        case 'persistent replace:--name'
            echo 1
        case 'persistent replace:--charter'
            echo 1
        case 'persistent replace:--charter-file'
            echo 1
        case 'persistent replace:--schedule'
            echo 1
        case 'persistent replace:--life-state'
            echo 1
        case 'persistent replace:--whitelist-policy'
            echo 1
        case 'persistent replace:--preferred-contact'
            echo 1
        case 'persistent replace:--template-code'
            echo 1
        case 'persistent replace:--mcp-server'
            echo 1
        case 'persistent message:--channel'
            echo 1
        case 'persistent message:--sender'
            echo 1
        case 'persistent message:--recipient'
            echo 1
        case 'persistent message:--subject'
            echo 1
        case 'persistent message:--metadata'
            echo 1
        case 'persistent chat:--channel'
            echo 1
        case 'persistent chat:--sender'
            echo 1
        case 'persistent chat:--reply-timeout'
            echo 1
        case 'persistent wait-event:--type'
            echo 1
        case 'persistent wait-event:--from'
            echo 1
        case 'persistent wait-event:--channel'
            echo 1
        case 'persistent wait-event:--after'
            echo 1
        case 'persistent status:--watch'
            echo 1
        case 'persistent timeline:--direction'
            echo 1
        case 'persistent timeline:--cursor'
            echo 1
        case 'persistent timeline:--limit'
            echo 1
        case 'persistent web-tasks:--status'
            echo 1
        case 'persistent web-tasks:--limit'
            echo 1
        case 'persistent link:--messages-per-window'
            echo 1
        case 'persistent link:--window-hours'
            echo 1
        case 'persistent unlink:--link'
            echo 1
        case 'persistent upload:--path'
            echo 1
        case 'persistent upload:--mime-type'
            echo 1
        case 'persistent download:-o' 'persistent download:--output'
            echo 1
        case 'persistent trace:--limit'
            echo 1
        case 'persistent trace:--recent-minutes'
            echo 1
        case 'persistent trace:--since'
            echo 1
        case 'persistent trace:--until'
            echo 1
        case 'persistent trace:--cursor'
            echo 1
        case 'persistent trace:--include'
            echo 1
        case 'persistent trace:--detail'
            echo 1
        case 'persistent trace:--eval-run'
            echo 1
        case 'plan:--dir'
            echo 1
        case 'plan:--prune-agent'
            echo 1
        case 'apply:--dir'
            echo 1
        case 'apply:--prune-agent'
            echo 1
        case 'export:--dir'
            echo 1
        case 'export:--from-portable'
            echo 1
        case 'schedule-preview:--count'
            echo 1
        case 'schedule-preview:--from'
            echo 1
        case 'schedule-preview:--tz'
            echo 1
        case 'schedule-preview:--agent'
            echo 1
        case 'api:-X' 'api:--method'
            echo 1
        case 'api:-f' 'api:--raw-field'
            echo 1
        case 'api:-F' 'api:--field'
            echo 1
        case 'api:-H' 'api:--header'
            echo 1
        case 'api:--input'
            echo 1
        case 'api:--data'
            echo 1
        case 'emulator:--port'
            echo 1
        case 'emulator:--host'
            echo 1
        case 'emulator:--task-duration'
            echo 1
        case 'emulator:--latency'
            echo 1
        case 'emulator:--faults'
            echo 1
        case 'emulator:--seed'
            echo 1
        case 'emulator:--allowed-host'
            echo 1
        case 'emulator:--agent-limit'
            echo 1
        case 'emulator:--task-credits'
            echo 1
        case 'emulator:--state'
            echo 1
        case 'emulator check:--ignore'
            echo 1
        case 'emulator check:--junit'
            echo 1
        case 'webhook-listen:--host'
            echo 1
        case 'webhook-listen:--port'
            echo 1
        case 'webhook-listen:--path'
            echo 1
        case 'webhook-listen:--output'
            echo 1
        case 'webhook-listen:--forward-to'
            echo 1
        case 'webhook-listen:--task'
            echo 1
        case 'webhook-listen:--count'
            echo 1
        case 'webhook-listen:--max-body'
            echo 1
        case 'webhook-listen:--drain-timeout'
            echo 1
        case 'webhook-listen replay:--forward-to'
            echo 1
        case 'webhook-listen replay:--task'
            echo 1
        case 'webhook-listen replay:--since'
            echo 1
        case 'mcp:--http'
            echo 1
        case 'mcp:--allow-secret-env'
            echo 1
        case 'mcp:--agents-dir'
            echo 1
        case 'mcp:--secrets-dir'
            echo 1
        case 'mcp:--toolsets'
            echo 1
        case 'mcp:--tools'
            echo 1
        case 'mcp:--exclude-tools'
            echo 1
        case 'mcp:--tool-prefix'
            echo 1
        case 'mcp:--wait'
            echo 1
        case 'mcp:--max-wait'
            echo 1
        case 'conformance:--junit'
            echo 1
        case 'conformance:--ignore'
            echo 1
        case '*:--base-url'
            echo 1
        case '*:--api-key'
            echo 1
        case '*:--api-key-file'
            echo 1
        case '*:--profile'
            echo 1
        case '*:--fields'
            echo 1
        case '*:--jq'
            echo 1
        case '*:--timeout'
            echo 1
        case '*:--record'
            echo 1
        case '*:--max-response'
            echo 1
        case '*'
            echo 0
    end
end

# Two lines: the command path before the cursor ("tasks list") and how many positional arguments it has.
function __agentctl_state
    set -l line (commandline -pc)
    if test "$line" = "$__agentctl_state_key"
        printf '%s\n' $__agentctl_state_value
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
            string match -q -- '*=*' $token; or set skip (__agentctl_arity "$path" $token)
        else
            set -l child
            test $dashdash -eq 0; and set child (__agentctl_child "$path" $token)
            if test -n "$child"
                set path (string trim -- "$path $child")
                set pos 0
            else
                set pos (math $pos + 1)
            end
        end
    end
    set -g __agentctl_state_key $line
    set -g __agentctl_state_value "$path" $pos
    printf '%s\n' "$path" $pos
end

# True when the cursor is right below command path $argv (no words: the top level).
function __agentctl_at
    set -l state (__agentctl_state)
    test "$state[1]" = "$argv"
end

# True when the cursor is on positional argument $argv[1] (from 0; "N+" for N or later) of command path $argv[2..].
function __agentctl_arg
    set -l state (__agentctl_state)
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
complete -c agentctl -f
complete -c agentctl -n '__agentctl_at' -a 'agents' -d 'legacy browser-use agents (records that run tasks)'
complete -c agentctl -n '__agentctl_at' -a 'tasks' -d 'legacy browser tasks: create, follow, inspect and cancel'
complete -c agentctl -n '__agentctl_at' -a 'persistent' -d 'persistent agents: long-lived agents with a charter, a schedule and a contact policy'
complete -c agentctl -n '__agentctl_at' -a 'plan' -d 'agents as code: show what apply would change (exit 11 when it would change something)'
complete -c agentctl -n '__agentctl_at' -a 'apply' -d 'agents as code: make the service match the agent files of a folder'
complete -c agentctl -n '__agentctl_at' -a 'export' -d 'agents as code: write a service\'s persistent agents as files'
complete -c agentctl -n '__agentctl_at' -a 'schedule-preview' -d 'check a schedule expression locally, describe it and list its next fire times (UTC)'
complete -c agentctl -n '__agentctl_at' -a 'auth' -d 'log in to a deployment, check, print or remove the stored API key'
complete -c agentctl -n '__agentctl_at' -a 'config' -d 'read and change stored settings (per --profile; file mode 0600)'
complete -c agentctl -n '__agentctl_at' -a 'api' -d 'send a raw authenticated request to any route and print the JSON answer'
complete -c agentctl -n '__agentctl_at' -a 'emulator' -d 'run a local, in-memory copy of the service for trying agentctl and testing scripts (no browser runs)'
complete -c agentctl -n '__agentctl_at' -a 'webhook-listen' -d 'run a local HTTP listener for task-completion webhooks: check, print, store and forward each event'
complete -c agentctl -n '__agentctl_at' -a 'mcp' -d 'serve the service to AI assistants over the Model Context Protocol (stdio, or --http PORT)'
complete -c agentctl -n '__agentctl_at' -a 'doctor' -d 'check the setup: base URL, key source, config file, reachability, latency and clock skew'
complete -c agentctl -n '__agentctl_at' -a 'conformance' -d 'check a deployment against what agentctl expects: a score per operation and what differs from the emulator'
complete -c agentctl -n '__agentctl_at' -a 'version' -d 'print the version of agentctl and of the Node.js it runs on (--version prints the bare number)'
complete -c agentctl -n '__agentctl_at' -a 'completion' -d 'print a shell completion script (bash, zsh, fish or powershell): subcommands, flags, their values and file names'
complete -c agentctl -n '__agentctl_at' -a 'help' -d 'show help for a command: agentctl help tasks create is agentctl tasks create --help'
complete -c agentctl -n '__agentctl_at' -s V -l version -d 'print the version'
complete -c agentctl -n '__agentctl_at' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at agents' -a 'list' -d 'list browser-use agents, newest first'
complete -c agentctl -n '__agentctl_at agents' -a 'create' -d 'create a browser-use agent'
complete -c agentctl -n '__agentctl_at agents' -a 'get' -d 'show one agent'
complete -c agentctl -n '__agentctl_at agents' -a 'update' -d 'change some fields of an agent (PATCH)'
complete -c agentctl -n '__agentctl_at agents' -a 'replace' -d 'replace an agent (PUT): every writable field is set'
complete -c agentctl -n '__agentctl_at agents' -a 'delete' -d 'delete an agent, its tasks and any persistent agent built on it'
complete -c agentctl -n '__agentctl_at agents' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at agents list' -l page -x -d 'page number, from 1'
complete -c agentctl -n '__agentctl_at agents list' -l page-size -x -d 'items per page, 1..100 (service default 10)'
complete -c agentctl -n '__agentctl_at agents list' -l all -d 'every page (streams with --jsonl)'
complete -c agentctl -n '__agentctl_at agents list' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at agents create' -l name -x -d 'agent name (at most 255 characters)'
complete -c agentctl -n '__agentctl_at agents create' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at agents get' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at agents update' -l name -x -d 'new name (at most 255 characters)'
complete -c agentctl -n '__agentctl_at agents update' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at agents replace' -l name -x -d 'name (at most 255 characters)'
complete -c agentctl -n '__agentctl_at agents replace' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at agents delete' -s y -l yes -d 'do not ask for confirmation (required without a terminal)'
complete -c agentctl -n '__agentctl_at agents delete' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks' -a 'list' -d 'list tasks, newest first'
complete -c agentctl -n '__agentctl_at tasks' -a 'create' -d 'create a task (and optionally wait for it)'
complete -c agentctl -n '__agentctl_at tasks' -a 'get' -d 'show one task'
complete -c agentctl -n '__agentctl_at tasks' -a 'update' -d 'change some fields of a task (PATCH)'
complete -c agentctl -n '__agentctl_at tasks' -a 'replace' -d 'replace a task (PUT)'
complete -c agentctl -n '__agentctl_at tasks' -a 'delete' -d 'delete a task (a running task is not stopped: cancel it first)'
complete -c agentctl -n '__agentctl_at tasks' -a 'cancel' -d 'cancel a pending or running task'
complete -c agentctl -n '__agentctl_at tasks' -a 'result' -d 'print a task\'s result'
complete -c agentctl -n '__agentctl_at tasks' -a 'run-batch' -d 'create many tasks from a JSON Lines file (or plain prompts, one a line), resumably; --follow waits for all'
complete -c agentctl -n '__agentctl_at tasks' -a 'batch-report' -d 'one report for a batch run as shards: joins their JSON lines and/or ledgers, each line once'
complete -c agentctl -n '__agentctl_at tasks' -a 'wait' -d 'wait until a task ends, print its result; exit 0 completed, 5 failed, 6 cancelled, 7 timed out'
complete -c agentctl -n '__agentctl_at tasks' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks list' -l status -x -a 'pending in_progress completed failed cancelled' -d 'keep only tasks in this status (filtered by agentctl: pages are read until --page-size tasks match, the list ends, or 100 pages were read)'
complete -c agentctl -n '__agentctl_at tasks list' -l watch -x -d 'refresh every SEC seconds (default 2) until Ctrl-C: redrawn in place on a terminal, one JSON document per refresh when piped'
complete -c agentctl -n '__agentctl_at tasks list' -l page -x -d 'page number, from 1'
complete -c agentctl -n '__agentctl_at tasks list' -l page-size -x -d 'items per page, 1..100 (service default 10)'
complete -c agentctl -n '__agentctl_at tasks list' -l all -d 'every page (streams with --jsonl)'
complete -c agentctl -n '__agentctl_at tasks list' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks list' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks create' -l prompt-file -r -F -d 'read the prompt from a file (- for stdin)'
complete -c agentctl -n '__agentctl_at tasks create' -l output-schema -r -F -d 'JSON Schema for a structured result: a file, @file, - for stdin, or inline JSON; checked as the service checks it (draft 2020-12, at most 40 levels) before any request'
complete -c agentctl -n '__agentctl_at tasks create' -l secret -x -d 'a secret for a domain (repeatable; argv is visible to others, prefer the next two)'
complete -c agentctl -n '__agentctl_at tasks create' -l secrets-file -r -F -d 'secrets as JSON: {"https://site": {"KEY": "value"}} (- for stdin)'
complete -c agentctl -n '__agentctl_at tasks create' -l secret-env -x -d 'a secret read from an environment variable (repeatable)'
complete -c agentctl -n '__agentctl_at tasks create' -l webhook -x -d 'http(s) URL called once when the task ends'
complete -c agentctl -n '__agentctl_at tasks create' -l wait -x -d 'let the service hold the request until the task ends, 0..1350 seconds'
complete -c agentctl -n '__agentctl_at tasks create' -l follow -d 'poll until the task ends, print the result, and exit with the task\'s code'
complete -c agentctl -n '__agentctl_at tasks create' -l interval -x -d 'with --follow: longest time between polls, seconds'
complete -c agentctl -n '__agentctl_at tasks create' -l id-only -d 'print only the new task\'s id'
complete -c agentctl -n '__agentctl_at tasks create' -l webhook-listen -d 'start a local listener, register it as the webhook, wait for the callback, print the result and exit with the task\'s code (polls slowly as a fallback)'
complete -c agentctl -n '__agentctl_at tasks create' -l public-url -x -d 'with --webhook-listen: public base URL (e.g. a tunnel) the service calls; the listener\'s secret path is appended'
complete -c agentctl -n '__agentctl_at tasks create' -l listen-host -x -d 'with --webhook-listen: address to listen on (default 127.0.0.1)'
complete -c agentctl -n '__agentctl_at tasks create' -l listen-port -x -d 'with --webhook-listen: port to listen on (default 0 = any free port)'
complete -c agentctl -n '__agentctl_at tasks create' -l fallback-interval -x -d 'with --webhook-listen: poll this often in case the webhook never arrives (default 15)'
complete -c agentctl -n '__agentctl_at tasks create' -l max-outage -x -d 'with --follow or --webhook-listen: give up when the service is unreachable this long (default 300)'
complete -c agentctl -n '__agentctl_at tasks create' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks create' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks get' -l watch -x -d 'refresh every SEC seconds (default 2) until Ctrl-C: redrawn in place on a terminal, one JSON document per refresh when piped'
complete -c agentctl -n '__agentctl_at tasks get' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks get' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks update' -l prompt-file -r -F -d 'read the prompt from a file (- for stdin)'
complete -c agentctl -n '__agentctl_at tasks update' -l output-schema -r -F -d 'JSON Schema for a structured result: a file, @file, - for stdin, or inline JSON; checked as the service checks it (draft 2020-12, at most 40 levels) before any request'
complete -c agentctl -n '__agentctl_at tasks update' -l secret -x -d 'a secret for a domain (repeatable; argv is visible to others, prefer the next two)'
complete -c agentctl -n '__agentctl_at tasks update' -l secrets-file -r -F -d 'secrets as JSON: {"https://site": {"KEY": "value"}} (- for stdin)'
complete -c agentctl -n '__agentctl_at tasks update' -l secret-env -x -d 'a secret read from an environment variable (repeatable)'
complete -c agentctl -n '__agentctl_at tasks update' -l webhook -x -d 'http(s) URL called once when the task ends'
complete -c agentctl -n '__agentctl_at tasks update' -l prompt -x -d 'new prompt (only while the task is pending)'
complete -c agentctl -n '__agentctl_at tasks update' -l no-webhook -d 'remove the webhook'
complete -c agentctl -n '__agentctl_at tasks update' -l credits-cost -x -d 'credits used, e.g. 0.4 (up to 9 integer and 3 fractional digits)'
complete -c agentctl -n '__agentctl_at tasks update' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks update' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks replace' -l prompt-file -r -F -d 'read the prompt from a file (- for stdin)'
complete -c agentctl -n '__agentctl_at tasks replace' -l output-schema -r -F -d 'JSON Schema for a structured result: a file, @file, - for stdin, or inline JSON; checked as the service checks it (draft 2020-12, at most 40 levels) before any request'
complete -c agentctl -n '__agentctl_at tasks replace' -l secret -x -d 'a secret for a domain (repeatable; argv is visible to others, prefer the next two)'
complete -c agentctl -n '__agentctl_at tasks replace' -l secrets-file -r -F -d 'secrets as JSON: {"https://site": {"KEY": "value"}} (- for stdin)'
complete -c agentctl -n '__agentctl_at tasks replace' -l secret-env -x -d 'a secret read from an environment variable (repeatable)'
complete -c agentctl -n '__agentctl_at tasks replace' -l webhook -x -d 'http(s) URL called once when the task ends'
complete -c agentctl -n '__agentctl_at tasks replace' -l credits-cost -x -d 'credits used, e.g. 0.4'
complete -c agentctl -n '__agentctl_at tasks replace' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks replace' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks delete' -s y -l yes -d 'do not ask for confirmation (required without a terminal)'
complete -c agentctl -n '__agentctl_at tasks delete' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks delete' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks cancel' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks cancel' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks result' -l check-schema -d 'check the result against the task\'s output_schema locally; exit 10 when it does not match'
complete -c agentctl -n '__agentctl_at tasks result' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks result' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l concurrency -x -d 'requests in flight at once, 1..64'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l follow -d 'wait for every task; print one JSON line per task as it ends'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l interval -x -d 'with --follow: longest time between polls, seconds'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l max-outage -x -d 'with --follow: give up when the service is unreachable this long'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l ledger -r -F -d 'where each line\'s task id is recorded (default FILE.ledger beside the input)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l shard -x -d 'take every n-th task from the i-th (1-based), to split one file across CI jobs; auto reads the CI engine\'s variables'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l shard-total -x -d 'with --shard auto: the number of shards where the engine does not say (Kubernetes Indexed Jobs)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l max-rate -x -d 'start at most n requests a second, creates and polls together (default: only --concurrency bounds them)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l retry-unknown -d 'send again the lines whose create outcome is unknown (check them first)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l webhook-listen -d 'follow through completion webhooks: one listener for the batch, polling only tasks whose webhook does not come (implies --follow)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l public-url -x -d 'with --webhook-listen: public base URL (e.g. a tunnel) the service calls; the listener\'s secret path is appended'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l listen-host -x -d 'with --webhook-listen: address to listen on (default 127.0.0.1)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l listen-port -x -d 'with --webhook-listen: port to listen on (default 0 = any free port)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -l fallback-interval -x -d 'with --webhook-listen: poll a task whose webhook has not come this often (default 60)'
complete -c agentctl -n '__agentctl_at tasks run-batch' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks batch-report' -l input -r -F -d 'the tasks file the shards ran: every task line is then reported, a line no shard reported as missing'
complete -c agentctl -n '__agentctl_at tasks batch-report' -l junit -r -F -d 'also write JUnit XML: one testcase per line, failed/unknown/missing lines as failures'
complete -c agentctl -n '__agentctl_at tasks batch-report' -l annotations -x -a 'github none' -d 'github: ::error annotations and a step summary (default when GITHUB_ACTIONS=true); none'
complete -c agentctl -n '__agentctl_at tasks batch-report' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at tasks wait' -l interval -x -d 'longest time between polls, seconds'
complete -c agentctl -n '__agentctl_at tasks wait' -l max-outage -x -d 'give up when the service is unreachable this long (default 300)'
complete -c agentctl -n '__agentctl_at tasks wait' -l any -d 'with several ids: stop at the first task that ends, with its exit code'
complete -c agentctl -n '__agentctl_at tasks wait' -l agent -x -d 'use the agent-scoped routes of this browser-use agent (UUID)'
complete -c agentctl -n '__agentctl_at tasks wait' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent' -a 'list' -d 'list persistent agents, newest first'
complete -c agentctl -n '__agentctl_at persistent' -a 'get' -d 'show an agent: identity, schedule with its next runs, state and contact policy'
complete -c agentctl -n '__agentctl_at persistent' -a 'create' -d 'create a persistent agent'
complete -c agentctl -n '__agentctl_at persistent' -a 'update' -d 'change some fields of an agent (PATCH)'
complete -c agentctl -n '__agentctl_at persistent' -a 'replace' -d 'replace an agent (PUT): --name is required; only the fields given are sent'
complete -c agentctl -n '__agentctl_at persistent' -a 'delete' -d 'delete an agent'
complete -c agentctl -n '__agentctl_at persistent' -a 'activate' -d 'activate an agent (restores an expired schedule)'
complete -c agentctl -n '__agentctl_at persistent' -a 'deactivate' -d 'pause an agent'
complete -c agentctl -n '__agentctl_at persistent' -a 'message' -d 'send a message to an agent, as on any of its channels'
complete -c agentctl -n '__agentctl_at persistent' -a 'chat' -d 'talk with an agent on the web channel: each line is a message, replies stream in'
complete -c agentctl -n '__agentctl_at persistent' -a 'wait-event' -d 'wait for an event on an agent\'s timeline (its reply): the service\'s event wait, over durable cursors'
complete -c agentctl -n '__agentctl_at persistent' -a 'status' -d 'is the agent working now: its running web tasks and its next scheduled run'
complete -c agentctl -n '__agentctl_at persistent' -a 'timeline' -d 'the agent\'s activity log, oldest first: messages, thinking, plans and tool steps'
complete -c agentctl -n '__agentctl_at persistent' -a 'web-tasks' -d 'the browser tasks the agent started, newest first'
complete -c agentctl -n '__agentctl_at persistent' -a 'links' -d 'the peer links between agents (agents that may message each other), newest first'
complete -c agentctl -n '__agentctl_at persistent' -a 'link' -d 'let two agents message each other (creates the peer link, or enables it again)'
complete -c agentctl -n '__agentctl_at persistent' -a 'unlink' -d 'remove the peer link between two agents (their past messages stay)'
complete -c agentctl -n '__agentctl_at persistent' -a 'files' -d 'the files and folders of the agent\'s filespace'
complete -c agentctl -n '__agentctl_at persistent' -a 'upload' -d 'store a local file in the agent\'s filespace'
complete -c agentctl -n '__agentctl_at persistent' -a 'download' -d 'read a file of the agent\'s filespace, to a file you name or to stdout'
complete -c agentctl -n '__agentctl_at persistent' -a 'settings' -d 'the settings the key may give an agent (the service\'s config options): intelligence tiers, daily credit limits, schedules, policies'
complete -c agentctl -n '__agentctl_at persistent' -a 'trace' -d 'the agent\'s debug trace: recent timeline and audit events, tool calls, completions, diagnostics'
complete -c agentctl -n '__agentctl_at persistent' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent list' -l page -x -d 'page number, from 1'
complete -c agentctl -n '__agentctl_at persistent list' -l page-size -x -d 'items per page, 1..100 (service default 10)'
complete -c agentctl -n '__agentctl_at persistent list' -l all -d 'every page (streams with --jsonl)'
complete -c agentctl -n '__agentctl_at persistent list' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent get' -s w -l web -d 'open the agent in the service\'s web app (prints the URL when piped)'
complete -c agentctl -n '__agentctl_at persistent get' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent create' -l name -x -d 'agent name, at most 255 characters (the service picks one if omitted)'
complete -c agentctl -n '__agentctl_at persistent create' -l charter -x -d 'the agent\'s assigned objectives'
complete -c agentctl -n '__agentctl_at persistent create' -l charter-file -r -F -d 'read the charter from a file (- for stdin)'
complete -c agentctl -n '__agentctl_at persistent create' -l schedule -x -d 'when the agent wakes up, evaluated in UTC: @daily, "@every 1h 30m", "0 9 * * mon-fri" (see schedule-preview)'
complete -c agentctl -n '__agentctl_at persistent create' -l no-schedule -d 'clear the schedule (the agent only acts when messaged)'
complete -c agentctl -n '__agentctl_at persistent create' -l active -d 'the agent is active'
complete -c agentctl -n '__agentctl_at persistent create' -l paused -d 'the agent is paused (is_active false)'
complete -c agentctl -n '__agentctl_at persistent create' -l life-state -x -a 'active expired' -d 'soft expiry state'
complete -c agentctl -n '__agentctl_at persistent create' -l whitelist-policy -x -a 'default manual' -d 'who may message the agent: default (owner and organisation) or manual (allowlist)'
complete -c agentctl -n '__agentctl_at persistent create' -l preferred-contact -x -d 'email, sms or a contact endpoint UUID'
complete -c agentctl -n '__agentctl_at persistent create' -l proactive -d 'let the agent offer related help on its own'
complete -c agentctl -n '__agentctl_at persistent create' -l no-proactive -d 'no proactive outreach'
complete -c agentctl -n '__agentctl_at persistent create' -l template-code -x -d 'create from a template'
complete -c agentctl -n '__agentctl_at persistent create' -l mcp-server -x -d 'enable a personal MCP server (repeatable)'
complete -c agentctl -n '__agentctl_at persistent create' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent update' -l name -x -d 'new name, at most 255 characters'
complete -c agentctl -n '__agentctl_at persistent update' -l charter -x -d 'the agent\'s assigned objectives'
complete -c agentctl -n '__agentctl_at persistent update' -l charter-file -r -F -d 'read the charter from a file (- for stdin)'
complete -c agentctl -n '__agentctl_at persistent update' -l schedule -x -d 'when the agent wakes up, evaluated in UTC: @daily, "@every 1h 30m", "0 9 * * mon-fri" (see schedule-preview)'
complete -c agentctl -n '__agentctl_at persistent update' -l no-schedule -d 'clear the schedule (the agent only acts when messaged)'
complete -c agentctl -n '__agentctl_at persistent update' -l active -d 'the agent is active'
complete -c agentctl -n '__agentctl_at persistent update' -l paused -d 'the agent is paused (is_active false)'
complete -c agentctl -n '__agentctl_at persistent update' -l life-state -x -a 'active expired' -d 'soft expiry state'
complete -c agentctl -n '__agentctl_at persistent update' -l whitelist-policy -x -a 'default manual' -d 'who may message the agent: default (owner and organisation) or manual (allowlist)'
complete -c agentctl -n '__agentctl_at persistent update' -l preferred-contact -x -d 'email, sms or a contact endpoint UUID'
complete -c agentctl -n '__agentctl_at persistent update' -l proactive -d 'let the agent offer related help on its own'
complete -c agentctl -n '__agentctl_at persistent update' -l no-proactive -d 'no proactive outreach'
complete -c agentctl -n '__agentctl_at persistent update' -l template-code -x -d 'create from a template'
complete -c agentctl -n '__agentctl_at persistent update' -l mcp-server -x -d 'enable a personal MCP server (repeatable)'
complete -c agentctl -n '__agentctl_at persistent update' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent replace' -l name -x -d 'name, at most 255 characters (required)'
complete -c agentctl -n '__agentctl_at persistent replace' -l charter -x -d 'the agent\'s assigned objectives'
complete -c agentctl -n '__agentctl_at persistent replace' -l charter-file -r -F -d 'read the charter from a file (- for stdin)'
complete -c agentctl -n '__agentctl_at persistent replace' -l schedule -x -d 'when the agent wakes up, evaluated in UTC: @daily, "@every 1h 30m", "0 9 * * mon-fri" (see schedule-preview)'
complete -c agentctl -n '__agentctl_at persistent replace' -l no-schedule -d 'clear the schedule (the agent only acts when messaged)'
complete -c agentctl -n '__agentctl_at persistent replace' -l active -d 'the agent is active'
complete -c agentctl -n '__agentctl_at persistent replace' -l paused -d 'the agent is paused (is_active false)'
complete -c agentctl -n '__agentctl_at persistent replace' -l life-state -x -a 'active expired' -d 'soft expiry state'
complete -c agentctl -n '__agentctl_at persistent replace' -l whitelist-policy -x -a 'default manual' -d 'who may message the agent: default (owner and organisation) or manual (allowlist)'
complete -c agentctl -n '__agentctl_at persistent replace' -l preferred-contact -x -d 'email, sms or a contact endpoint UUID'
complete -c agentctl -n '__agentctl_at persistent replace' -l proactive -d 'let the agent offer related help on its own'
complete -c agentctl -n '__agentctl_at persistent replace' -l no-proactive -d 'no proactive outreach'
complete -c agentctl -n '__agentctl_at persistent replace' -l template-code -x -d 'create from a template'
complete -c agentctl -n '__agentctl_at persistent replace' -l mcp-server -x -d 'enable a personal MCP server (repeatable)'
complete -c agentctl -n '__agentctl_at persistent replace' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent delete' -s y -l yes -d 'do not ask for confirmation (required without a terminal)'
complete -c agentctl -n '__agentctl_at persistent delete' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent activate' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent deactivate' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent message' -l channel -x -a 'email sms slack discord web other' -d 'channel the message arrives on'
complete -c agentctl -n '__agentctl_at persistent message' -l sender -x -d 'who sends it: the owner\'s address on that channel (on web leave it out: the service sends as the key\'s user, the owner)'
complete -c agentctl -n '__agentctl_at persistent message' -l recipient -x -d 'the agent\'s own address on that channel; best left out (the service then uses the agent\'s own). Any other is refused before sending'
complete -c agentctl -n '__agentctl_at persistent message' -l subject -x -d 'subject line (email)'
complete -c agentctl -n '__agentctl_at persistent message' -l metadata -x -d 'extra JSON object: inline, @file or - for stdin'
complete -c agentctl -n '__agentctl_at persistent message' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent chat' -l channel -x -a 'web email' -d 'web (through the service\'s MCP endpoint) or email (to the agent\'s own address, from --sender)'
complete -c agentctl -n '__agentctl_at persistent chat' -l sender -x -d 'on email: the owner\'s e-mail address (needed); on web leave it out (the service sends as the key\'s user, the owner)'
complete -c agentctl -n '__agentctl_at persistent chat' -l reply-timeout -x -d 'without a terminal: how long to wait for the replies once the input ends'
complete -c agentctl -n '__agentctl_at persistent chat' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent wait-event' -l type -x -a 'message steps thinking plan' -d 'only events of this kind'
complete -c agentctl -n '__agentctl_at persistent wait-event' -l from -x -a 'agent human_user external system' -d 'only events from: agent (its messages), human_user, external (MCP and other senders), system (steps, thinking, plans)'
complete -c agentctl -n '__agentctl_at persistent wait-event' -l channel -x -d 'only messages on this channel (web, email, sms, mcp, ...)'
complete -c agentctl -n '__agentctl_at persistent wait-event' -l after -x -d 'only events after this timeline cursor (the `cursor` of `persistent message --json`, or of an earlier wait); default: after the newest event now'
complete -c agentctl -n '__agentctl_at persistent wait-event' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent status' -l watch -x -d 'refresh every SEC seconds (default 2) until Ctrl-C: redrawn in place on a terminal, one JSON document per refresh when piped'
complete -c agentctl -n '__agentctl_at persistent status' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent timeline' -l direction -x -a 'initial older newer' -d 'which window: the newest (initial), or older/newer than --cursor'
complete -c agentctl -n '__agentctl_at persistent timeline' -l cursor -x -d 'cursor from a previous answer (oldest_cursor / newest_cursor)'
complete -c agentctl -n '__agentctl_at persistent timeline' -l limit -x -d 'events per request, 1..100 (service default 40)'
complete -c agentctl -n '__agentctl_at persistent timeline' -l all -d 'page back to the very first event (100 a window unless --limit)'
complete -c agentctl -n '__agentctl_at persistent timeline' -s f -l follow -d 'like tail -f: the newest events, then new ones as they come, until Ctrl-C'
complete -c agentctl -n '__agentctl_at persistent timeline' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent web-tasks' -l status -x -a 'pending in_progress completed failed cancelled' -d 'keep only tasks in this status'
complete -c agentctl -n '__agentctl_at persistent web-tasks' -l limit -x -d 'at most this many, 1..200 (service default 50)'
complete -c agentctl -n '__agentctl_at persistent web-tasks' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent links' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent link' -l messages-per-window -x -d 'how many messages the pair may send per window, 1..500 (service default 30)'
complete -c agentctl -n '__agentctl_at persistent link' -l window-hours -x -d 'the window\'s length in hours, 1..168 (service default 6)'
complete -c agentctl -n '__agentctl_at persistent link' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent unlink' -l link -x -d 'the link to remove, by its id (instead of the two agents)'
complete -c agentctl -n '__agentctl_at persistent unlink' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent files' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent upload' -l path -r -F -d 'where in the filespace (default /uploads/ and the file\'s name)'
complete -c agentctl -n '__agentctl_at persistent upload' -l mime-type -x -d 'its type (default: from the extension, else application/octet-stream)'
complete -c agentctl -n '__agentctl_at persistent upload' -l overwrite -d 'replace a file already at that path (without, the service stores it under a new name beside it)'
complete -c agentctl -n '__agentctl_at persistent upload' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent download' -s o -l output -r -F -d 'write it here (- for stdout, the default); the name the service gives it is never used as a path'
complete -c agentctl -n '__agentctl_at persistent download' -l clobber -d 'replace the --output file if it exists'
complete -c agentctl -n '__agentctl_at persistent download' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent settings' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at persistent trace' -l limit -x -d 'items per section, 1..50 (service default 20)'
complete -c agentctl -n '__agentctl_at persistent trace' -l recent-minutes -x -d 'the window: this many minutes back, 1..10080 (service default 60)'
complete -c agentctl -n '__agentctl_at persistent trace' -l since -x -d 'the window from this ISO 8601 time (not with --recent-minutes)'
complete -c agentctl -n '__agentctl_at persistent trace' -l until -x -d 'the window up to this ISO 8601 time (default now; at most 7 days after --since)'
complete -c agentctl -n '__agentctl_at persistent trace' -l cursor -x -d 'older audit events: audit.next_cursor of a trace'
complete -c agentctl -n '__agentctl_at persistent trace' -l include -x -d 'only these sections, comma-separated: timeline, audit_events, completions, eval_debug_artifacts, diagnostics'
complete -c agentctl -n '__agentctl_at persistent trace' -l detail -x -a 'summary standard verbose' -d 'how long the previews are (secrets are redacted at every level)'
complete -c agentctl -n '__agentctl_at persistent trace' -l eval-run -x -d 'only this eval run\'s debug artifacts (UUID)'
complete -c agentctl -n '__agentctl_at persistent trace' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at plan' -l dir -x -d 'the folder of agent files (default ./agents)'
complete -c agentctl -n '__agentctl_at plan' -l check -d 'for CI: print only the differences; exit 11 when there are any'
complete -c agentctl -n '__agentctl_at plan' -l prune -d 'also delete the agents apply created whose files are gone'
complete -c agentctl -n '__agentctl_at plan' -l prune-agent -x -d 'also delete this agent (by name) whose file is gone, though apply did not create it (repeatable)'
complete -c agentctl -n '__agentctl_at plan' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at apply' -l dir -x -d 'the folder of agent files (default ./agents)'
complete -c agentctl -n '__agentctl_at apply' -s y -l yes -d 'do not ask for confirmation (required without a terminal)'
complete -c agentctl -n '__agentctl_at apply' -l prune -d 'also delete the agents apply created whose files are gone'
complete -c agentctl -n '__agentctl_at apply' -l prune-agent -x -d 'also delete this agent (by name) whose file is gone, though apply did not create it (repeatable)'
complete -c agentctl -n '__agentctl_at apply' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at export' -l dir -x -d 'the folder of agent files (default ./agents)'
complete -c agentctl -n '__agentctl_at export' -l from-portable -x -d 'write the agents of a Gobii portable export ZIP instead (nothing is sent)'
complete -c agentctl -n '__agentctl_at export' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at schedule-preview' -l count -x -d 'how many fire times, 1..1000'
complete -c agentctl -n '__agentctl_at schedule-preview' -l from -x -d 'list fire times after this instant (ISO 8601, default now)'
complete -c agentctl -n '__agentctl_at schedule-preview' -l tz -x -d 'show times in this IANA time zone (the schedule itself runs in UTC)'
complete -c agentctl -n '__agentctl_at schedule-preview' -l agent -x -d 'also ask the service for its answer (POST /agents/ID/schedule/preview/)'
complete -c agentctl -n '__agentctl_at schedule-preview' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at auth' -a 'login' -d 'check an API key with the service (GET /ping/) and store it in the profile'
complete -c agentctl -n '__agentctl_at auth' -a 'status' -d 'show which deployment and key are in use, and check them'
complete -c agentctl -n '__agentctl_at auth' -a 'logout' -d 'remove the stored API key from the profile'
complete -c agentctl -n '__agentctl_at auth' -a 'token' -d 'print the API key in use (the active profile\'s, or --api-key-file / AGENTCTL_API_KEY) on stdout'
complete -c agentctl -n '__agentctl_at auth' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at auth login' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at auth status' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at auth logout' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at auth token' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at config' -a 'get' -d 'print one setting (an API key is shown masked)'
complete -c agentctl -n '__agentctl_at config' -a 'set' -d 'store a setting in the profile'
complete -c agentctl -n '__agentctl_at config' -a 'unset' -d 'remove a setting from the profile'
complete -c agentctl -n '__agentctl_at config' -a 'list' -d 'show the settings of the profile (or of every profile with --all-profiles)'
complete -c agentctl -n '__agentctl_at config' -a 'path' -d 'print where the config file lives (works even when the file is broken)'
complete -c agentctl -n '__agentctl_at config' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at config get' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_arg 0 config get' -a 'base-url api-key output timeout insecure-http' -d 'key'
complete -c agentctl -n '__agentctl_at config set' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_arg 0 config set' -a 'base-url api-key output timeout insecure-http' -d 'key'
complete -c agentctl -n '__agentctl_at config unset' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_arg 0 config unset' -a 'base-url api-key output timeout insecure-http' -d 'key'
complete -c agentctl -n '__agentctl_at config list' -l all-profiles -d 'every profile'
complete -c agentctl -n '__agentctl_at config list' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at config path' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at api' -s X -l method -x -d 'the HTTP method (default GET, or POST when -f/-F give fields)'
complete -c agentctl -n '__agentctl_at api' -s f -l raw-field -x -d 'a string field: in the JSON body, or the query string for GET and DELETE (repeatable)'
complete -c agentctl -n '__agentctl_at api' -s F -l field -x -d 'a typed field: true, false, null and numbers as such, @FILE for a file\'s text (repeatable)'
complete -c agentctl -n '__agentctl_at api' -s H -l header -x -d 'an extra request header, "Name: value" (repeatable)'
complete -c agentctl -n '__agentctl_at api' -s i -l include -d 'print the status line and the response headers before the body'
complete -c agentctl -n '__agentctl_at api' -l input -r -F -d 'the request body from a JSON file (- for stdin); the same as --data @FILE'
complete -c agentctl -n '__agentctl_at api' -l data -x -d 'request body: inline JSON, @FILE, or @- for stdin'
complete -c agentctl -n '__agentctl_at api' -l paginate -d 'for GET on a list: follow every page and print all results as one array'
complete -c agentctl -n '__agentctl_at api' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at emulator' -a 'check' -d 'replay cassettes (--record FILE) against a fresh emulator and report each answer that differs, by rule'
complete -c agentctl -n '__agentctl_at emulator' -l port -x -d 'port to listen on (0 = any free port)'
complete -c agentctl -n '__agentctl_at emulator' -l host -x -d 'address to listen on'
complete -c agentctl -n '__agentctl_at emulator' -l task-duration -x -d 'how long a simulated task runs'
complete -c agentctl -n '__agentctl_at emulator' -l latency -x -d 'extra delay before every response'
complete -c agentctl -n '__agentctl_at emulator' -l faults -x -d 'inject faults, e.g. "503@10%, 429@5%/2, reset@1%, latency=200ms" or "POST /tasks/* => 500@50%"'
complete -c agentctl -n '__agentctl_at emulator' -l seed -x -d 'repeatable ids and fault draws (the same seed and requests give the same answers)'
complete -c agentctl -n '__agentctl_at emulator' -l allowed-host -x -d 'also answer requests whose Host is NAME (or NAME:PORT); on a loopback --host, other names than localhost, 127.x.x.x and [::1] get 421 (repeatable)'
complete -c agentctl -n '__agentctl_at emulator' -l agent-limit -x -d 'the plan\'s agent limit: creating a persistent agent beyond N alive answers 400 "Agent limit reached for this user."'
complete -c agentctl -n '__agentctl_at emulator' -l task-credits -x -d 'the plan\'s task credits: after N task creates, the next answers 402 (before its body is read)'
complete -c agentctl -n '__agentctl_at emulator' -l state -r -F -d 'load the records from FILE at start (if it exists), save them there every 2 s while anything changes and on stop (one emulator per file)'
complete -c agentctl -n '__agentctl_at emulator' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at emulator check' -l ignore -x -d 'accept the differences of a rule (repeatable): status, error-text, field-missing, field-extra, field-type, field-format, default, ordering, page-links'
complete -c agentctl -n '__agentctl_at emulator check' -l junit -r -F -d 'also write JUnit XML: one testcase per recorded request, a failure for each that differs'
complete -c agentctl -n '__agentctl_at emulator check' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at webhook-listen' -a 'replay' -d 'resend (or list) events captured by webhook-listen --output, in order, through the forwarder'
complete -c agentctl -n '__agentctl_at webhook-listen' -l host -x -d 'address to listen on'
complete -c agentctl -n '__agentctl_at webhook-listen' -l port -x -d 'port to listen on (0 = any free port)'
complete -c agentctl -n '__agentctl_at webhook-listen' -l path -x -d 'URL path to accept (default: a random secret segment; other paths get 404)'
complete -c agentctl -n '__agentctl_at webhook-listen' -l print-url -d 'print the URL to register alone on stdout (first line), before any event'
complete -c agentctl -n '__agentctl_at webhook-listen' -l output -r -F -d 'append each event as a JSON line, fsynced before the service gets its 200; also keeps the forward queue across restarts'
complete -c agentctl -n '__agentctl_at webhook-listen' -l forward-to -x -d 're-post each event (body, content type, user agent) here, in order, retrying while it is down (repeatable)'
complete -c agentctl -n '__agentctl_at webhook-listen' -l task -x -d 'keep only this task\'s events (others are acknowledged and dropped)'
complete -c agentctl -n '__agentctl_at webhook-listen' -l count -x -d 'exit after N events'
complete -c agentctl -n '__agentctl_at webhook-listen' -l once -d 'exit after the first event (--count 1)'
complete -c agentctl -n '__agentctl_at webhook-listen' -l max-body -x -d 'largest body accepted; larger ones get 413'
complete -c agentctl -n '__agentctl_at webhook-listen' -l drain-timeout -x -d 'on --count/--timeout exit, how long to wait for forwarding to finish'
complete -c agentctl -n '__agentctl_at webhook-listen' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at webhook-listen replay' -l forward-to -x -d 'post the events here (repeatable); without it, print them'
complete -c agentctl -n '__agentctl_at webhook-listen replay' -l task -x -d 'only this task\'s events'
complete -c agentctl -n '__agentctl_at webhook-listen replay' -l since -x -d 'only events received at or after TIME: ISO 8601, or a duration ago (90s, 15m, 2h, 7d)'
complete -c agentctl -n '__agentctl_at webhook-listen replay' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at mcp' -l http -x -d 'serve Streamable HTTP on loopback (127.0.0.1 and [::1]) at PORT (0 = any free port) instead of stdio; clients send the bearer token of AGENTCTL_MCP_TOKEN, or the one printed on stderr'
complete -c agentctl -n '__agentctl_at mcp' -l allow-secret-env -x -d 'let tasks_create read this environment variable as a task secret (NAME, or PREFIX* for every variable starting so; add @SITE,SITE to send it to these secrets domains only, e.g. SHOP_PASSWORD@https://shop.example); repeatable. Without it no variable is read'
complete -c agentctl -n '__agentctl_at mcp' -l agents-dir -x -d 'the folder of agent files the as-code tools plan and apply (default ./agents; the as-code toolset is off unless --toolsets names it)'
complete -c agentctl -n '__agentctl_at mcp' -l secrets-dir -x -d 'let tasks_create read secrets files lying directly in this folder (regular files with one name: no links, hard links or subfolders); none without'
complete -c agentctl -n '__agentctl_at mcp' -l read-only -d 'offer only the tools that change nothing (get, list, result, wait, timeline, status, preview)'
complete -c agentctl -n '__agentctl_at mcp' -l toolsets -x -d 'offer only these groups of tools, comma-separated: tasks, agents, persistent, schedule, links, files, inspect, as-code; default (tasks, agents, persistent, schedule, what is offered without the flag) or all'
complete -c agentctl -n '__agentctl_at mcp' -l tools -x -d 'offer only these tools, comma-separated (e.g. tasks_create,tasks_wait)'
complete -c agentctl -n '__agentctl_at mcp' -l exclude-tools -x -d 'never offer these tools, comma-separated (e.g. agents_delete)'
complete -c agentctl -n '__agentctl_at mcp' -l tool-prefix -x -d 'put this before every tool name (e.g. gobii_), for clients that mix servers'
complete -c agentctl -n '__agentctl_at mcp' -l wait -x -d 'how long tasks_wait waits when the call does not say, seconds (default 40: clients end a request after 60 s)'
complete -c agentctl -n '__agentctl_at mcp' -l max-wait -x -d 'the longest a tasks_wait call may ask to wait, seconds (default 50, under a client\'s 60 s; a model calls again to wait on)'
complete -c agentctl -n '__agentctl_at mcp' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at doctor' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at conformance' -l allow-writes -d 'also create, change and delete: one browser-use agent, one persistent agent and three tasks, each removed at the end'
complete -c agentctl -n '__agentctl_at conformance' -s y -l yes -d 'with --allow-writes: go ahead without asking (needed off a terminal and in CI)'
complete -c agentctl -n '__agentctl_at conformance' -l junit -r -F -d 'also write a JUnit report: one test case per operation'
complete -c agentctl -n '__agentctl_at conformance' -l ignore -x -d 'accept the differences of a rule, or a known difference\'s id (repeatable): status, error-text, field-missing, field-extra, field-type, field-format, default, ordering, page-links'
complete -c agentctl -n '__agentctl_at conformance' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at version' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_at completion' -s h -l help -d 'show help for a command'
complete -c agentctl -n '__agentctl_arg 0 completion' -a 'bash zsh fish powershell' -d 'shell'
complete -c agentctl -n '__agentctl_at help' -s h -l help -d 'show help for a command'
complete -c agentctl -l base-url -x -d 'service base URL including the version segment (env AGENTCTL_BASE_URL)'
complete -c agentctl -l insecure-http -d 'allow a plain http:// base URL to another machine: the API key crosses the network in clear text (env AGENTCTL_INSECURE_HTTP=1; loopback needs no flag)'
complete -c agentctl -l api-key -x -d 'API key (env AGENTCTL_API_KEY; argv is visible to other users: prefer env, config or --api-key-file)'
complete -c agentctl -l api-key-file -r -F -d 'read the API key from a file (- for stdin)'
complete -c agentctl -l profile -x -d 'named profile in the config file (env AGENTCTL_PROFILE)'
complete -c agentctl -l json -d 'machine output: one JSON document on stdout'
complete -c agentctl -l jsonl -d 'list commands: one JSON object per line (streams with --all)'
complete -c agentctl -l fields -x -d 'columns of a table / keys kept in JSON (an unknown name is an error that lists the known ones)'
complete -c agentctl -l jq -x -d 'filter the JSON output with a jq expression (implies --json; strings print raw)'
complete -c agentctl -l no-color -d 'no ANSI colour (also off when stdout is not a terminal, or NO_COLOR is set)'
complete -c agentctl -s q -l quiet -d 'nothing on stderr but errors'
complete -c agentctl -l verbose -d 'HTTP trace on stderr with secrets redacted (env AGENTCTL_DEBUG=1)'
complete -c agentctl -l timeout -x -d 'per-request timeout in seconds (default 30); for waits, how long to wait'
complete -c agentctl -l record -r -F -d 'append each request and answer to FILE as a cassette, secrets taken out (env AGENTCTL_RECORD; replay: agentctl emulator check FILE)'
complete -c agentctl -l max-response -x -d 'largest answer read, in MB (default 64, up to 500; env AGENTCTL_MAX_RESPONSE_MB)'
