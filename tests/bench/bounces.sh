#!/usr/bin/env bash
# Benchmark: bounce messages through the real bounce listener. EVENTS messages (default 50,000; hard 5.1.1 DSNs,
# every fourth an ARF abuse complaint) to the signed VERP addresses of EVENTS seeded contacts of one mailing, sent
# over CONNECTIONS SMTP sessions at once (default 32) by inbound/examples/bounce_burst.rs. Prints events/s
# acknowledged (250s per second), the floor measured in the same run (COPY of as many delivery_events rows into a
# scratch copy of the table with the same indexes), their ratio, the load average, and whether delivery_events
# holds exactly one row per acknowledged message (EXACT/MISMATCH; exit 1 on MISMATCH).
#
#   tests/bench/bounces.sh [EVENTS] [CONNECTIONS] [--kill]     PROFILE=debug uses the debug build (default release)
#
# --kill (the fault run; tests/faults/bounces.sh): kills the listener with SIGKILL twice during the burst, at a third
# and at two thirds of the events stored, and starts it again on the same port each time. The load client sends
# again whatever was not answered 250, as a real MTA does; every acknowledged message must be stored exactly once.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

EVENTS=${1:-50000}
CONNECTIONS=${2:-32}
KILL=${3:-}
PROFILE=${PROFILE:-release}
TARGET_ROOT=${CARGO_TARGET_DIR:-$ROOT/target}
if [ -n "$KILL" ]; then DB=${BENCH_DB:-compass_fault_bounces}; else DB=${BENCH_DB:-compass_bench_bounces}; fi
WORK="$DATA/bench-bounces"; mkdir -p "$WORK"
ensure_postgres
fresh_database "$DB"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
calc() { python3 -c "print($1)"; }
export DATABASE_URL=$(pg_url "$DB") JWT_SECRET="bench-secret-bench-secret-bench-secret" RUST_LOG=${RUST_LOG:-warn}
export BOUNCE_SECRET="bench-bounce-secret-bench-bounce-secret"
export BOUNCE_LISTEN="127.0.0.1:$(free_port)"
PSQL=(psql -qtA -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")

say "building the $PROFILE bounce listener, api and load client"
if [ "$PROFILE" = release ]; then FLAG=--release; else FLAG=; fi
cargo build -q $FLAG -p api --bin api
cargo build -q $FLAG -p inbound --bin bounce-listener --example bounce_burst
BIN="$TARGET_ROOT/$PROFILE"
"$BIN/api" migrate >/dev/null
"$BIN/api" clients create --short bounce --name "Bounce bench" >/dev/null
read -r CLIENT_ID SCHEMA < <("${PSQL[@]}" -F' ' -c "select id, schema_name from clients where short_name = 'bounce'")

say "seeding $EVENTS contacts and a mailing in $SCHEMA"
"${PSQL[@]}" <<SQL
set search_path = $SCHEMA, public;
insert into contacts (email, first_name, subscription)
select 'b' || n || '@bench.example.org', 'Friend', 'subscribed' from generate_series(1, $EVENTS) n order by n;
insert into mailings (name, subject_line) values ('Bench appeal', 'Hello');
SQL
# A real client's tables have statistics: without them the planner reads the contacts' e-mail-list state (filled
# by the seed's trigger) by sequential scan in every round.
"${PSQL[@]}" -c "vacuum analyze"
read -r FIRST LAST MAILING_ID < <("${PSQL[@]}" -F' ' -c \
  "select min(id), max(id), (select max(id) from $SCHEMA.mailings) from $SCHEMA.contacts")
[ $((LAST - FIRST + 1)) = "$EVENTS" ] || die "contact ids are not contiguous ($FIRST..$LAST)"

PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null || true' EXIT
start_listener() {
  "$BIN/bounce-listener" >>"$WORK/listener.log" 2>&1 &
  LISTENER_PID=$!; PIDS+=($LISTENER_PID)
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/${BOUNCE_LISTEN%:*}/${BOUNCE_LISTEN#*:}") 2>/dev/null && return; sleep 0.1; done
  die "the bounce listener did not start; see $WORK/listener.log"
}
: >"$WORK/listener.log"
start_listener
stored() { "${PSQL[@]}" -c "select count(*) from $SCHEMA.delivery_events"; }

say "burst: $EVENTS bounce messages over $CONNECTIONS sessions${KILL:+, listener killed twice}"
"$BIN/examples/bounce_burst" "$BOUNCE_LISTEN" "$BOUNCE_SECRET" "$CLIENT_ID" "$MAILING_ID" "$FIRST" "$EVENTS" \
  "$CONNECTIONS" "$WORK/acked.txt" >"$WORK/burst.txt" &
CLIENT_PID=$!; PIDS+=($CLIENT_PID)
if [ -n "$KILL" ]; then
  for third in 1 2; do
    while kill -0 "$CLIENT_PID" 2>/dev/null && [ "$(stored)" -lt $((EVENTS * third / 3)) ]; do sleep 0.2; done
    kill -0 "$CLIENT_PID" 2>/dev/null || break
    at=$(stored)
    kill -9 "$LISTENER_PID"; wait "$LISTENER_PID" 2>/dev/null || true
    echo "listener killed (SIGKILL) at $at events stored; starting it again"
    sleep 0.5
    start_listener
  done
fi
wait "$CLIENT_PID" || die "the load client failed"
cat "$WORK/burst.txt"
load=$(uptime)

say "floor: COPY of $EVENTS delivery_events rows into a scratch copy of the table with the same indexes"
"${PSQL[@]}" <<SQL
drop table if exists public.bench_floor_events;
create table public.bench_floor_events (like $SCHEMA.delivery_events including all);
\copy (select 'dsn', '<dsn-' || n || '@mx.bench.example.net> b' || n || '@bench.example.org', 'bounced', 'hard', '5.1.1', 'smtp; 550 5.1.1 user unknown', 'b' || n || '@bench.example.org', $MAILING_ID, $FIRST + n - 1, now() from generate_series(1, $EVENTS) n) to '$WORK/floor.csv' csv
SQL
t0=$(date +%s.%N)
"${PSQL[@]}" -c "\\copy public.bench_floor_events (source, source_event_id, kind, bounce_type, status_code, diagnostic, email, mailing_id, contact_id, occurred_at) from '$WORK/floor.csv' csv"
floor_seconds=$(calc "$(date +%s.%N) - $t0")
"${PSQL[@]}" -c "drop table public.bench_floor_events"

acked=$(sed -n 's/^ACKED=//p' "$WORK/burst.txt")
refused=$(sed -n 's/^REFUSED=//p' "$WORK/burst.txt")
retries=$(sed -n 's/^RETRIES=//p' "$WORK/burst.txt")
rate=$(sed -n 's/^EVENTS_PER_SECOND=//p' "$WORK/burst.txt")
floor_rate=$(calc "round($EVENTS / $floor_seconds)")
read -r rows distinct_ids missing extra evidence < <("${PSQL[@]}" -F' ' <<SQL
create temporary table acked (contact_id bigint);
\copy acked from '$WORK/acked.txt'
select (select count(*) from $SCHEMA.delivery_events),
       (select count(distinct contact_id) from $SCHEMA.delivery_events),
       (select count(*) from acked a where not exists
            (select 1 from $SCHEMA.delivery_events e where e.contact_id = a.contact_id)),
       (select count(*) from $SCHEMA.delivery_events e where not exists
            (select 1 from acked a where a.contact_id = e.contact_id)),
       (select count(*) from $SCHEMA.delivery_evidence);
SQL
)
verdict=MISMATCH
if [ "$rows" = "$acked" ] && [ "$distinct_ids" = "$acked" ] && [ "$missing" = 0 ] && [ "$extra" = 0 ] \
   && [ "$acked" = "$EVENTS" ] && [ "$refused" = 0 ]; then verdict=EXACT; fi

printf '\nprofile         %s%s\n' "$PROFILE" "${KILL:+ (fault run: listener killed twice)}"
printf 'events          %d over %d sessions; %s retries, %s refused (5xx)\n' "$EVENTS" "$CONNECTIONS" "$retries" "$refused"
printf 'acknowledged    %s events/s (250s per second; target >= 5,000)\n' "$rate"
printf 'floor           %s events/s (COPY of %d rows, %.2f s)\n' "$floor_rate" "$EVENTS" "$floor_seconds"
printf 'ratio           %.3f of the floor\n' "$(calc "$rate / $floor_rate")"
printf 'load            %s\n' "${load#*load average: }"
printf 'stored          %s acknowledged, %s delivery_events rows (%s contacts), %s acknowledged but missing, %s not acknowledged  %s\n' \
  "$acked" "$rows" "$distinct_ids" "$missing" "$extra" "$verdict"
# A message committed whose 250 was lost (the listener killed between the two) comes again: its evidence is kept
# twice, its event once.
printf 'evidence        %s messages kept (%s sent again after a commit whose 250 was lost)\n' "$evidence" \
  "$((evidence - rows))"
[ "$verdict" = EXACT ]
