// What the emulator simulates and what it does not (docs/emulator.md says the same at length).
export const SIMULATION_HELP = `
The first line on stdout is the base URL; logs go to stderr. On another port, address or key it
also prints the two export lines (AGENTCTL_BASE_URL, AGENTCTL_API_KEY) to copy into a shell.
The global --api-key KEY sets the key clients must send (default emulator-key).

It answers as the service does (Gobii API 0.1.0: the OpenAPI document of gobii-platform c9929bf
with the behaviour its code adds): all 36 operations, the same statuses, bodies and error shapes,
page_size default 10 and at most 100, timeline and web-task limits clamped, request bodies over
1 MiB answered 413.

Tasks: pending, then in_progress after a fifth of --task-duration, then completed with the result
"Emulated result for: <start of the prompt>" (or an example of the output schema's shape).
Prompt markers:
  [fail]          the task ends failed, with an error message
  [hang]          the task stays in_progress until cancelled
  [pending]       the task stays pending (so it can still be replaced) until cancelled
  [no-credits]    create answers 402 (not enough task credits)
  [server-error]  create answers 500 with an error id
wait=N on create blocks until the task ends or N seconds pass, as the service does.
Webhooks are delivered for real: one POST per finished task, 10 s timeout, no retry, outcome
recorded on the task (webhook_last_status_code, webhook_last_error).

Persistent agents: each is built on a listed browser-use agent (deleting that removes it).
A message starts a web task under that agent (prompt = the message; the markers apply); when it
ends, the timeline gets a steps event and a reply. As on the service, an agent hears only its
owner: email from emulator@example.com, sms from +15555550100 (--recipient needed: no number is
bought), web from web://user/42/agent/<id> to web://agent/<id> (--recipient needed until the agent
has written on the web); slack, discord and other senders get 403. A new charter adds a thinking
and a plan event; short_description follows one request later, as the service fills it in later.

A schedule fires on time: each run adds a thinking event and a web task with the charter as prompt.

Faults (--faults SPEC, or PUT /_emulator/faults at run time), e.g.
  "503@10%, 429@5%/2"          a rate of errors (429 with Retry-After: 2)
  "reset@1%, latency=200ms"    cut connections, slower answers; also slow=1s (a trickling body)
  "outage=30s-90s"             503 from 30 s to 90 s after start
  "POST /tasks/* => 500@50%"   only on the routes named
--seed N makes ids and fault draws repeat; --state FILE keeps the records across restarts (saved
every 2 s while anything changes, and on stop; a second emulator on the same file refuses it).
GET /_emulator/requests lists the requests seen; POST /_emulator/reset forgets everything;
  curl -X PUT --data 'GET /tasks/* => reset@50%' http://127.0.0.1:8787/_emulator/faults

Not simulated: no browser runs and no real results; no e-mail, SMS or chat is sent; no
organizations or 401s; without --state everything is in memory and gone when the emulator stops.`;
