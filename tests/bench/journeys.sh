#!/usr/bin/env bash
# Benchmark: the journeys engine through the real worker and send path, on a client with CONTACTS contacts inside
# a journey (default 20,000), DUE of them due at once at a send step (default 2,000) and SIGNUPS new list signups
# (default 2,000) to enrol. Prints:
#   - steps/s: due places advanced (a step record, a recipient queued, the place moved to its wait) by the
#     worker's journeys pass, against a floor measured in the same run: the same writes as plain set-based SQL
#     statements in one transaction (the least the database must do), and the ratio;
#   - mailed/s: the journey's e-mails delivered by the send path to a counting SMTP sink;
#   - the enrolment of SIGNUPS new signups (events → places), in seconds;
#   - the load average, since the machine is shared.
#
#   tests/bench/journeys.sh [CONTACTS] [DUE] [SIGNUPS]     the issue's size: tests/bench/journeys.sh 1000000 100000 100000
#
# PROFILE=debug uses the debug build (slower than release). BENCH_DB (default compass_bench_journeys) is dropped and
# recreated. Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

CONTACTS=${1:-20000}
DUE=${2:-2000}
SIGNUPS=${3:-2000}
DB=${BENCH_DB:-compass_bench_journeys}
WORK="$DATA/bench-journeys"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database "$DB"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-journeys-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret"
export RUST_LOG=${RUST_LOG:-warn} WEB_DIST="$WORK/none" SCHEDULE_SECONDS=1
export SEND_JOURNAL_DIR="$WORK/journal"; rm -rf "$SEND_JOURNAL_DIR"
PSQL=(psql -qtA -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")
calc() { python3 -c "print($1)"; }
now() { date +%s.%N; }
q() { "${PSQL[@]}" -c "set search_path = client_bench; $1" | tail -n1; }

PROFILE=${PROFILE:-release}
say "building the $PROFILE api, worker and sink"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api --bin worker --bin smtp-sink
else cargo build -q --bin api --bin worker --bin smtp-sink; fi
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE"
"$BIN/api" migrate >/dev/null
"$BIN/api" clients create --short bench --name "Bench" >/dev/null

say "filling: $CONTACTS contacts inside a journey, $DUE of them due now, $SIGNUPS more to sign up"
"${PSQL[@]}" <<SQL
set search_path = client_bench;
insert into senders (name, from_address) values ('Bench', 'bench@example.org');
insert into mailing_templates (name, body_html) values ('Bench', '<p>Hi {{First.Name}}</p>');
insert into crm_lists (name, kind) values ('Bench', 'upload');
insert into contacts (email, first_name) select 'c' || g || '@example.org', 'C' || g
from generate_series(1, $CONTACTS + $SIGNUPS) g;
insert into journeys (name, status, ever_active) values ('Bench', 'active', true);
insert into journey_versions (journey_id, version, definition) values (1, 1, '{
  "triggers": [{"kind": "list_added", "list_id": 1}], "reentry": {"kind": "never"}, "exit_on_gift": false,
  "start": "mail", "steps": [
    {"id": "mail", "kind": "send", "template_id": 1, "subject": "Hello {{First.Name}}", "on_cap": "skip", "next": "pause"},
    {"id": "pause", "kind": "wait", "hours": 24, "next": null}]}');
insert into journey_contacts (journey_id, version, contact_id, step_id, due_at, entered_at, in_wait)
select 1, 1, g, case when g <= $DUE then 'mail' else 'pause' end,
       case when g <= $DUE then now() else now() + interval '1 day' end, now(), g > $DUE
from generate_series(1, $CONTACTS) g;
analyze;
SQL

# The floor: the writes a pass makes for DUE places, as plain statements in one transaction (rolled back).
say "floor: the same writes as set-based SQL"
start=$(now)
"${PSQL[@]}" <<SQL
set search_path = client_bench;
begin;
insert into mailings (name, subject_line, sender_id, is_draft, send_attempt, journey_id)
values ('floor', 'floor', 1, false, now(), 1);
insert into journey_step_sends (journey_contact_id, seq, journey_id, version, step_id, contact_id, outcome, at)
select id, seq + 1, 1, 1, step_id, contact_id, 'sent', now() from journey_contacts where state = 'waiting' and due_at <= now();
insert into journey_step_sends (journey_contact_id, seq, journey_id, version, step_id, contact_id, outcome, at)
select id, seq + 2, 1, 1, 'pause', contact_id, 'reached', now() from journey_contacts where state = 'waiting' and due_at <= now();
insert into mailing_recipients (mailing_id, contact_id, email, first_name)
select currval(pg_get_serial_sequence('mailings', 'id')), c.id, c.email, c.first_name
from journey_contacts jc join contacts c on c.id = jc.contact_id where jc.state = 'waiting' and jc.due_at <= now();
update journey_contacts set step_id = 'pause', in_wait = true, seq = seq + 2, due_at = now() + interval '1 day'
where state = 'waiting' and due_at <= now();
rollback;
SQL
FLOOR=$(calc "$(now) - $start")

SINK_PORT=$(free_port)
"$BIN/smtp-sink" "$SINK_PORT" - >"$WORK/sink.log" 2>&1 &
SINK_PID=$!
export SMTP_URL="smtp://127.0.0.1:$SINK_PORT"
sleep 0.3
say "advancing $DUE due places with the worker"
start=$(now)
"$BIN/worker" >"$WORK/worker.log" 2>&1 &
WORKER_PID=$!
trap 'kill $WORKER_PID $SINK_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
until [ "$(q "select count(*) from journey_contacts where state = 'waiting' and due_at <= now()")" = 0 ]; do sleep 0.2; done
ADVANCED=$(calc "$(now) - $start")
until [ "$(sed -n 's/^delivered //p' "$WORK/sink.log" | tail -n1)" = "$DUE" ]; do
  sleep 0.2
  [ "$(calc "$(now) - $start > 600")" = True ] && { echo "not all mailed within 600 s"; break; }
done
MAILED=$(calc "$(now) - $start")
STEPS=$(q "select count(*) from journey_step_sends")

say "enrolling $SIGNUPS new signups"
start=$(now)
q "insert into crm_list_members (list_id, contact_id) select 1, g from generate_series($CONTACTS + 1, $CONTACTS + $SIGNUPS) g" >/dev/null
until [ "$(q "select count(*) from journey_contacts")" = "$((CONTACTS + SIGNUPS))" ]; do sleep 0.2; done
ENROLLED=$(calc "$(now) - $start")

echo "due places: $DUE, step records: $STEPS"
echo "engine: $(calc "round($DUE / $ADVANCED)") places/s ($(calc "round($STEPS / $ADVANCED)") steps/s), $(calc "round($ADVANCED, 2)") s"
echo "floor: $(calc "round($DUE / $FLOOR)") places/s, $(calc "round($FLOOR, 2)") s; ratio engine/floor time: $(calc "round($ADVANCED / $FLOOR, 1)")"
echo "mailed: $DUE in $(calc "round($MAILED, 2)") s ($(calc "round($DUE / $MAILED)") e-mails/s)"
echo "enrolment: $SIGNUPS signups in $(calc "round($ENROLLED, 2)") s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
