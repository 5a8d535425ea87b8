#!/usr/bin/env bash
# Benchmark and fault run: relay webhooks through the real api. EVENTS Mailgun "failed (permanent)" events (default
# 10,000), each signed and naming one of EVENTS seeded contacts of one mailing, posted over CONNECTIONS connections
# at once (default 16) by tests/bench/lib/mailgun_burst.py. Prints events/s acknowledged (200s per second), the
# floor measured in the same run (COPY of as many delivery_events rows into a scratch copy of the table), their
# ratio, the load average, and whether delivery_events holds exactly one row per acknowledged event (EXACT, else
# MISMATCH and exit 1).
#
#   tests/bench/delivery_webhooks.sh [EVENTS] [CONNECTIONS] [--kill]   PROFILE=debug uses the debug build
#
# --kill (the fault run; tests/faults/delivery_webhooks.sh): kills the api with SIGKILL twice during the burst, at a
# third and at two thirds of the events stored, and starts it again on the same port. The load client posts again
# whatever was not answered 200, as Mailgun retries; every acknowledged event must be stored exactly once, its
# suppression and contact status with it.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

EVENTS=${1:-10000}
CONNECTIONS=${2:-16}
KILL=${3:-}
PROFILE=${PROFILE:-release}
TARGET_ROOT=${CARGO_TARGET_DIR:-$ROOT/target}
if [ -n "$KILL" ]; then DB=${BENCH_DB:-compass_fault_webhooks}; else DB=${BENCH_DB:-compass_bench_webhooks}; fi
WORK="$DATA/bench-delivery-webhooks"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database "$DB"
calc() { python3 -c "print($1)"; }
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-webhooks-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" RUST_LOG=${RUST_LOG:-warn} WEB_DIST="$WORK/none"
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
KEY="bench-mailgun-signing-key-0123456789"
PSQL=(psql -qtA -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")

say "building the $PROFILE api"
if [ "$PROFILE" = release ]; then FLAG=--release; else FLAG=; fi
cargo build -q $FLAG -p api --bin api
API="$TARGET_ROOT/$PROFILE/api"
"$API" migrate >/dev/null
"$API" clients create --short hooks --name "Webhook bench" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --admin >/dev/null
read -r CLIENT_ID SCHEMA < <("${PSQL[@]}" -F' ' -c "select id, schema_name from clients where short_name = 'hooks'")

say "seeding $EVENTS contacts, a mailing and its recipients in $SCHEMA"
"${PSQL[@]}" <<SQL
set search_path = $SCHEMA, public;
insert into contacts (email, first_name, subscription)
select 'w' || n || '@bench.example.org', 'Friend', 'subscribed' from generate_series(1, $EVENTS) n order by n;
insert into mailings (name, subject_line) values ('Bench appeal', 'Hello');
insert into mailing_recipients (mailing_id, contact_id, email, status)
select (select max(id) from mailings), id, email, 'sent' from contacts;
SQL
read -r FIRST LAST MAILING_ID < <("${PSQL[@]}" -F' ' -c \
  "select min(id), max(id), (select max(id) from $SCHEMA.mailings) from $SCHEMA.contacts")
[ $((LAST - FIRST + 1)) = "$EVENTS" ] || die "contact ids are not contiguous ($FIRST..$LAST)"

PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null || true' EXIT
start_api() {
  "$API" serve >>"$WORK/api.log" 2>&1 &
  API_PID=$!; PIDS+=($API_PID)
  for _ in $(seq 150); do curl -sf "$BASE/healthz" >/dev/null && return; sleep 0.2; done
  die "the api did not start; see $WORK/api.log"
}
: >"$WORK/api.log"
start_api

say "turning the Mailgun webhook on, as an administrator does on the System page"
python3 - "$BASE" hooks "$KEY" <<'PY'
import json, sys, urllib.request
base, short, key = sys.argv[1:4]
def call(method, path, token=None, body=None, headers=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    if token: request.add_header("authorization", "Bearer " + token)
    for k, v in (headers or {}).items(): request.add_header(k, v)
    with urllib.request.urlopen(request) as r: return json.load(r)
basic = call("POST", "/auth-api/auth/login", body={"username": "bench@compass.test", "password": "Bench-passw0rd"})["accessToken"]
client = next(c for c in call("GET", "/auth-api/session/clients", basic) if c["short"] == short)
token = call("POST", "/auth-api/session/client-login", basic, {"clientId": client["id"]})["accessToken"]
call("PATCH", "/api/delivery-webhooks/mailgun", token, {"mailgunSigningKey": key, "enabled": True},
     {"client-short": short, "client-id": str(client["id"])})
PY
stored() { "${PSQL[@]}" -c "select count(*) from $SCHEMA.delivery_events"; }

say "burst: $EVENTS webhook events over $CONNECTIONS connections${KILL:+, api killed twice}"
python3 tests/bench/lib/mailgun_burst.py "$BASE" hooks "$KEY" "$CLIENT_ID" "$MAILING_ID" "$FIRST" "$EVENTS" \
  "$CONNECTIONS" "$WORK/acked.txt" >"$WORK/burst.txt" &
CLIENT_PID=$!; PIDS+=($CLIENT_PID)
if [ -n "$KILL" ]; then
  for third in 1 2; do
    while kill -0 "$CLIENT_PID" 2>/dev/null && [ "$(stored)" -lt $((EVENTS * third / 3)) ]; do sleep 0.2; done
    kill -0 "$CLIENT_PID" 2>/dev/null || break
    at=$(stored)
    kill -9 "$API_PID"; wait "$API_PID" 2>/dev/null || true
    echo "api killed (SIGKILL) at $at events stored; starting it again"
    start_api
  done
fi
wait "$CLIENT_PID" || die "the load client failed"
cat "$WORK/burst.txt"
load=$(uptime)

say "floor: COPY of $EVENTS delivery_events rows into a scratch copy of the table with the same indexes"
"${PSQL[@]}" <<SQL
set client_min_messages = warning;
drop table if exists public.bench_floor_events;
create table public.bench_floor_events (like $SCHEMA.delivery_events including all);
\copy (select 'mailgun', 'bench-event-' || n, 'bounced', 'hard', '5.1.1', '5.1.1 The account does not exist.', 'w' || n || '@bench.example.org', $MAILING_ID, $FIRST + n - 1, now() from generate_series(1, $EVENTS) n) to '$WORK/floor.csv' csv
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
read -r rows distinct_ids missing extra suppressed bounced_rows < <("${PSQL[@]}" -F' ' <<SQL
create temporary table acked (contact_id bigint);
\copy acked from '$WORK/acked.txt'
select (select count(*) from $SCHEMA.delivery_events),
       (select count(distinct contact_id) from $SCHEMA.delivery_events),
       (select count(*) from acked a where not exists
            (select 1 from $SCHEMA.delivery_events e where e.contact_id = a.contact_id)),
       (select count(*) from $SCHEMA.delivery_events e where not exists
            (select 1 from acked a where a.contact_id = e.contact_id)),
       (select count(*) from $SCHEMA.suppressions where lifted_at is null),
       (select count(*) from $SCHEMA.mailing_recipients where status = 'bounced');
SQL
)
verdict=MISMATCH
if [ "$rows" = "$acked" ] && [ "$distinct_ids" = "$acked" ] && [ "$missing" = 0 ] && [ "$extra" = 0 ] \
   && [ "$acked" = "$EVENTS" ] && [ "$refused" = 0 ] && [ "$suppressed" = "$EVENTS" ] \
   && [ "$bounced_rows" = "$EVENTS" ]; then verdict=EXACT; fi

printf '\nprofile         %s%s\n' "$PROFILE" "${KILL:+ (fault run: api killed twice)}"
printf 'events          %d over %d connections; %s retries, %s refused (4xx)\n' "$EVENTS" "$CONNECTIONS" "$retries" "$refused"
printf 'acknowledged    %s events/s (200s per second)\n' "$rate"
printf 'floor           %s events/s (COPY of %d rows, %.2f s)\n' "$floor_rate" "$EVENTS" "$floor_seconds"
printf 'ratio           %.3f of the floor\n' "$(calc "$rate / $floor_rate")"
printf 'load            %s\n' "${load#*load average: }"
printf 'stored          %s acknowledged, %s delivery_events rows (%s contacts), %s acknowledged but missing, %s not acknowledged, %s suppressed, %s recipient rows bounced  %s\n' \
  "$acked" "$rows" "$distinct_ids" "$missing" "$extra" "$suppressed" "$bounced_rows" "$verdict"
[ "$verdict" = EXACT ]
