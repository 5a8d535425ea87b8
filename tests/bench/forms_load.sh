#!/usr/bin/env bash
# Load benchmark of the public form endpoints on loopback, through the real api (release build): a fixed number
# of views, then a fixed number of submissions (each with a new e-mail), sent by api/examples/form_load.rs with a
# fixed number in flight; it waits for every answer, so the stored counts can be compared with exactly what was
# sent. Rate limiting is switched OFF for the run (FORM_VIEWS_PER_MINUTE=0, FORM_SUBMITS_PER_MINUTE=0).
#
#   tests/bench/forms_load.sh [VIEWS] [SUBMISSIONS] [CONCURRENCY]
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

VIEWS=${1:-200000}
SUBMISSIONS=${2:-60000}
CONCURRENCY=${3:-32}
WORK="$DATA/bench"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database compass_forms_bench
export DATABASE_URL=$(pg_url compass_forms_bench) REDIS_URL=$(redis_url) JOB_QUEUE="compass-forms-bench-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" RUST_LOG=warn WEB_DIST="$WORK/none"
export FORM_VIEWS_PER_MINUTE=0 FORM_SUBMITS_PER_MINUTE=0 DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-24}
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PSQL=(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres compass_forms_bench)

cargo build -q --release --bin api --example form_load
API="$ROOT/target/release/api"
"$API" migrate >/dev/null
"$API" clients create --short loadtest --name "Load test" >/dev/null
"${PSQL[@]}" -c "insert into client_loadtest.origin_codes (name) values ('load-form');
                 insert into client_loadtest.forms (name, origin_code_id, body_html)
                 select 'Load form', id, '<form><input type=\"email\" name=\"email\"><button>Go</button></form>'
                 from client_loadtest.origin_codes" >/dev/null
"$API" serve >"$WORK/forms-api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
BASE="http://127.0.0.1:$PORT"

LOAD="$ROOT/target/release/examples/form_load"
say "views: $VIEWS requests, $CONCURRENCY in flight"
"$LOAD" view "$BASE/api/crm-form/1/view" "$VIEWS" "$CONCURRENCY" loadtest | tee "$WORK/views.txt"
say "submissions: $SUBMISSIONS requests, $CONCURRENCY in flight"
"$LOAD" submit "$BASE/api/crm-form/1/submit" "$SUBMISSIONS" "$CONCURRENCY" loadtest | tee "$WORK/submits.txt"
sleep 1.5   # the api writes summed views twice a second

views_ok=$(sed -n 's/^OK_COUNT=//p' "$WORK/views.txt")
subs_ok=$(sed -n 's/^OK_COUNT=//p' "$WORK/submits.txt")
read -r views_stored signups contacts < <("${PSQL[@]}" -F' ' -c "select (select view_count from client_loadtest.forms where id = 1),
  (select count(*) from client_loadtest.external_signups), (select count(*) from client_loadtest.contacts)")
echo
printf 'views        %s sent, %s answered 2xx, %s stored  %s\n' "$VIEWS" "$views_ok" "$views_stored" \
  "$([ "$views_stored" = "$views_ok" ] && [ "$views_ok" = "$VIEWS" ] && echo EXACT || echo MISMATCH)"
printf 'submissions  %s sent, %s answered 2xx, %s signups, %s contacts  %s\n' "$SUBMISSIONS" "$subs_ok" "$signups" "$contacts" \
  "$([ "$signups" = "$subs_ok" ] && [ "$contacts" = "$signups" ] && [ "$subs_ok" = "$SUBMISSIONS" ] && echo EXACT || echo MISMATCH)"
echo "targets: views >= 10000/s, submissions >= 3000/s, p99 < 50 ms; rate limiting was off for this run"
