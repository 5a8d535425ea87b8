#!/usr/bin/env bash
# The fault run of issue 31: "kill -9 during a step that mails 20,000 contacts loses and repeats nothing".
# A private Postgres and Redis, the real api, worker and SMTP sink (the sink keeps each message as a file named by
# its recipient, so every contact's messages are counted). CONTACTS subscribed contacts (default 20,000) are pushed
# into an active journey through the api (`POST /api/journeys/{id}/enrol` with their list), so all are due at once
# at its first step, a send step followed by a 24-hour wait. While the worker's engine advances them and the send
# path mails them, the worker is killed with SIGKILL twice, at about a third and at two thirds of the messages at
# the sink, and another one is started each time. At the end it prints the send step's records, the recipients
# queued, the messages at the sink and the load average, then EXACT when every contact has exactly one step
# record, one recipient row (sent) and one message, else MISMATCH and exit 1.
#
#   tests/faults/journeys.sh [CONTACTS]     PROFILE=release uses the release build (default debug)
#
# TIMEOUT (default 900 s) bounds the wait for everything to be mailed. Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

CONTACTS=${1:-20000}
PROFILE=${PROFILE:-debug}
TIMEOUT=${TIMEOUT:-900}
LOG="$DATA/faults/journeys"
rm -rf "$LOG"; mkdir -p "$LOG"

say "building the $PROFILE api, worker and sink"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api --bin worker --bin smtp-sink
else cargo build -q --bin api --bin worker --bin smtp-sink; fi
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE"

start_private_postgres "$LOG/pg"
start_private_redis "$LOG/redis" --save "" --appendonly no
# Both workers use one journal directory, as a worker restarted on the same host does.
export SEND_JOURNAL_DIR="$LOG/journal"
export RUST_LOG=${RUST_LOG:-warn,worker::send=info,worker::journeys=info}
start_product "$LOG"
SCHEMA=$(fpsql compass -c "select schema_name from clients where short_name = 'faults'")
q() { fpsql compass -c "set search_path = $SCHEMA; $1" | tail -n1; }
at_sink() { find "$LOG/mail" -name '*.eml' | wc -l; }
api() { # api METHOD PATH [JSON]: the body; fails on a status other than 2xx
  curl -sf -X "$1" "${H[@]}" -H 'content-type: application/json' "$BASE$2" ${3:+-d "$3"}
}

say "filling: $CONTACTS subscribed contacts in an upload list, a sender and a template"
# The list is filled before any journey is active, so these additions are not journey events.
fpsql compass -v ON_ERROR_STOP=1 >/dev/null <<SQL
set search_path = $SCHEMA;
insert into senders (name, from_address) values ('Faults', 'team@faults.example.org');
insert into mailing_templates (name, body_html) values ('Welcome', '<p>Dear {{First.Name}}, welcome.</p>');
insert into crm_lists (name, kind) values ('Everyone', 'upload');
insert into contacts (email, first_name, subscription)
select 'j' || g || '@example.org', 'J' || g, 'subscribed' from generate_series(1, $CONTACTS) g;
insert into crm_list_members (list_id, contact_id)
select (select max(id) from crm_lists), id from contacts where email like 'j%@example.org';
analyze;
SQL
TEMPLATE=$(q "select max(id) from mailing_templates")
LIST=$(q "select max(id) from crm_lists")

say "a journey (send, then wait 24 h) activated and pushed the list's $CONTACTS contacts, through the api"
DEFINITION=$(cat <<JSON
{"triggers": [{"kind": "list_added", "list_id": $LIST}], "reentry": {"kind": "never"}, "exit_on_gift": false,
 "start": "mail", "steps": [
   {"id": "mail", "kind": "send", "template_id": $TEMPLATE, "subject": "Hello {{First.Name}}", "on_cap": "skip",
    "next": "pause"},
   {"id": "pause", "kind": "wait", "hours": 24, "next": null}]}
JSON
)
JOURNEY=$(api POST /api/journeys "{\"name\": \"Fault run\", \"definition\": $DEFINITION}" | json_field id)
api POST "/api/journeys/$JOURNEY/activate" >/dev/null
start=$(now); begun=$SECONDS
ENROLLED=$(api POST "/api/journeys/$JOURNEY/enrol" "{\"list_id\": $LIST, \"segment_id\": null}" | json_field enrolled)
[ "$ENROLLED" = "$CONTACTS" ] || die "the enrolment answered $ENROLLED, not $CONTACTS"
echo "  $ENROLLED contacts enrolled, due now at the send step"

due() { q "select count(*) from journey_contacts where state = 'waiting' and step_id = 'mail'"; }
KILLS=()
for third in 1 2; do
  until [ "$(at_sink)" -ge $((CONTACTS * third / 3)) ]; do
    sleep 0.2
    [ $((SECONDS - begun)) -gt "$TIMEOUT" ] && die "fewer than $((CONTACTS * third / 3)) messages within $TIMEOUT s"
  done
  messages=$(at_sink)
  kill -9 "$WORKER_PID"; wait "$WORKER_PID" 2>/dev/null || true
  places=$(due); queued=$(q "select count(*) from mailing_recipients where status = 'queued'")
  KILLS+=("at $messages messages at the sink ($(since "$start") s): $places places still due, $queued recipients queued")
  echo "  worker killed (SIGKILL) ${KILLS[-1]}; starting another"
  start_worker "$LOG"
done

# Done: no place left at the send step, no recipient queued, no send job waiting or running (a killed worker's
# job counts as running until it is handed over), three checks in a row.
settled() {
  [ "$(q "select (select count(*) from journey_contacts where state = 'waiting' and step_id = 'mail')
               + (select count(*) from mailing_recipients where status = 'queued')
               + (select count(*) from jobs where command = 'send-mailing' and status <> 'done')")" = 0 ]
}
# Or stuck: recipients queued with no send job left to mail them (the loss this run looks for).
stuck() {
  [ "$(q "select (select count(*) from journey_contacts where state = 'waiting' and step_id = 'mail') = 0
              and (select count(*) from jobs where command = 'send-mailing' and status <> 'done') = 0")" = t ]
}
calm=0; still=0
while [ "$calm" -lt 3 ] && [ "$still" -lt 30 ]; do
  sleep 1
  if settled; then calm=$((calm + 1)); else calm=0; fi
  if stuck; then still=$((still + 1)); else still=0; fi
  [ $((SECONDS - begun)) -gt "$TIMEOUT" ] && { echo "  not settled within $TIMEOUT s"; break; }
done
ELAPSED=$(since "$start")
sleep 1
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

read -r RECORDS RECORDED_CONTACTS ONE_RECORD SKIPPED < <(q "select
    count(*), count(distinct contact_id),
    (select count(*) from (select contact_id from journey_step_sends where step_id = 'mail'
                           group by contact_id having count(*) = 1 and bool_and(outcome = 'sent')) o),
    count(*) filter (where outcome <> 'sent')
  from journey_step_sends where step_id = 'mail'" | tr '|' ' ')
read -r ROWS ROW_CONTACTS SENT QUEUED MAILINGS < <(q "select count(*), count(distinct r.contact_id),
    count(*) filter (where r.status = 'sent'), count(*) filter (where r.status = 'queued'), count(distinct r.mailing_id)
  from mailing_recipients r join mailings m on m.id = r.mailing_id where m.journey_id = $JOURNEY" | tr '|' ' ')
PLACES=$(q "select count(*) from journey_contacts where state = 'waiting' and step_id = 'pause'")
JOBS=$(q "select count(*) || ' (' || count(*) filter (where success) || ' succeeded, '
                 || count(*) filter (where not success) || ' failed)'
          from jobs where command = 'send-mailing'")
# The sink names each file <stamp>-<n>-<recipient>.eml.
read -r MESSAGES DISTINCT TWICE MISSING STRANGERS < <(python3 - "$LOG/mail" "$CONTACTS" <<'PY'
import collections, os, sys
names = [n for n in os.listdir(sys.argv[1]) if n.endswith(".eml")]
counts = collections.Counter(n.split("-", 2)[2][:-4] for n in names)
expected = {f"j{g}@example.org" for g in range(1, int(sys.argv[2]) + 1)}
print(len(names), len(counts), sum(1 for c in counts.values() if c > 1), len(expected - set(counts)),
      len(set(counts) - expected))
PY
)
# What each restarted send read in the journal: every message the killed one handed to the server (the rows not
# yet recorded as sent among them are marked sent instead of mailed again).
HANDED=$(sed 's/\x1b\[[0-9;]*m//g' "$LOG/worker.log" | grep "recorded from the send journal" \
  | sed -n 's/.*recipients=\([0-9]*\).*/\1/p' | paste -sd, - || true)

verdict=MISMATCH
if [ "$RECORDS" = "$CONTACTS" ] && [ "$ONE_RECORD" = "$CONTACTS" ] && [ "$ROWS" = "$CONTACTS" ] \
   && [ "$ROW_CONTACTS" = "$CONTACTS" ] && [ "$SENT" = "$CONTACTS" ] && [ "$MESSAGES" = "$CONTACTS" ] \
   && [ "$DISTINCT" = "$CONTACTS" ] && [ "$TWICE" = 0 ] && [ "$MISSING" = 0 ] && [ "$STRANGERS" = 0 ]; then
  verdict=EXACT
fi

printf '\nprofile         %s; %d contacts due at once at a send step; worker killed (SIGKILL) twice\n' "$PROFILE" "$CONTACTS"
for k in "${KILLS[@]}"; do printf 'killed          %s\n' "$k"; done
printf 'step records    %s of the send step (%s contacts, %s with exactly one, sent; %s not sent)\n' \
  "$RECORDS" "$RECORDED_CONTACTS" "$ONE_RECORD" "$SKIPPED"
printf 'places          %s waiting at the next step\n' "$PLACES"
printf 'recipients      %s queued by the engine (%s contacts, %s mailing(s)): %s sent, %s still queued\n' \
  "$ROWS" "$ROW_CONTACTS" "$MAILINGS" "$SENT" "$QUEUED"
printf 'send jobs       %s; messages named by the send journal at each restart: %s\n' "$JOBS" "${HANDED:-none}"
printf 'at the sink     %s messages to %s addresses: %s twice or more, %s contacts without one, %s strangers\n' \
  "$MESSAGES" "$DISTINCT" "$TWICE" "$MISSING" "$STRANGERS"
printf 'elapsed         %s s from the enrolment until all was settled\n' "$ELAPSED"
printf 'load average    %s\n' "$LOAD"
printf 'verdict         %s\n' "$verdict"
[ "$verdict" = EXACT ]
