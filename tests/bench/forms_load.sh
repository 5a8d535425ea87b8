#!/usr/bin/env bash
# Load benchmark of the public form endpoints on loopback: sustained views, then sustained submissions (each
# with a new e-mail), through the real api (release build). Rate limiting is switched OFF for the run
# (FORM_VIEWS_PER_MINUTE=0, FORM_SUBMITS_PER_MINUTE=0). Prints requests/s and latency percentiles from wrk, then
# checks that the stored view count, signups and contacts equal exactly what wrk sent.
#
#   tests/bench/forms_load.sh [SECONDS] [CONNECTIONS]
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

DURATION=${1:-10}
CONNECTIONS=${2:-64}
command -v wrk >/dev/null || apt_install wrk || die "wrk is missing: apt-get install wrk"
WORK="$DATA/bench"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database compass_forms_bench
export DATABASE_URL=$(pg_url compass_forms_bench) REDIS_URL=$(redis_url) JOB_QUEUE="compass-forms-bench-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" RUST_LOG=warn WEB_DIST="$WORK/none"
export FORM_VIEWS_PER_MINUTE=0 FORM_SUBMITS_PER_MINUTE=0 DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-24}
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PSQL=(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres compass_forms_bench)

cargo build -q --release --bin api
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

cat > "$WORK/view.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["client-short"] = "loadtest"
LUA
cat > "$WORK/submit.lua" <<'LUA'
local threads = {}
function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end
local n = 0
function request()
  n = n + 1
  local body = string.format('{"email":"load-%d-%d@example.org"}', tid, n)
  return wrk.format("POST", nil, { ["client-short"] = "loadtest", ["content-type"] = "application/json" }, body)
end
LUA

# wrk's totals: requests completed and non-2xx answers.
sent() { awk '/requests in/ {print $1}' "$1"; }
bad() { awk '/Non-2xx/ {print $NF}' "$1"; }

say "views: $CONNECTIONS connections for ${DURATION}s"
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/view.lua" "$BASE/api/crm-form/1/view" | tee "$WORK/views.txt"
say "submissions: $CONNECTIONS connections for ${DURATION}s"
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/submit.lua" "$BASE/api/crm-form/1/submit" | tee "$WORK/submits.txt"
sleep 1.5   # the api writes summed views twice a second

views_sent=$(sent "$WORK/views.txt"); views_bad=$(bad "$WORK/views.txt"); views_bad=${views_bad:-0}
subs_sent=$(sent "$WORK/submits.txt"); subs_bad=$(bad "$WORK/submits.txt"); subs_bad=${subs_bad:-0}
read -r views_stored signups contacts < <("${PSQL[@]}" -F' ' -c "select (select view_count from client_loadtest.forms where id = 1),
  (select count(*) from client_loadtest.external_signups), (select count(*) from client_loadtest.contacts)")
echo
printf 'views        %s sent (%s non-2xx), %s stored  %s\n' "$views_sent" "$views_bad" "$views_stored" \
  "$([ "$views_stored" = "$((views_sent - views_bad))" ] && echo OK || echo MISMATCH)"
printf 'submissions  %s sent (%s non-2xx), %s signups, %s contacts  %s\n' "$subs_sent" "$subs_bad" "$signups" "$contacts" \
  "$([ "$signups" = "$((subs_sent - subs_bad))" ] && [ "$contacts" = "$signups" ] && echo OK || echo MISMATCH)"
printf 'views/s      %s   p99 %s\n' "$(awk '/Requests\/sec/ {print $2}' "$WORK/views.txt")" "$(awk '$1 == "99%" {print $2}' "$WORK/views.txt")"
printf 'submits/s    %s   p99 %s\n' "$(awk '/Requests\/sec/ {print $2}' "$WORK/submits.txt")" "$(awk '$1 == "99%" {print $2}' "$WORK/submits.txt")"
echo "targets: views >= 10000/s, submissions >= 3000/s, p99 < 50ms; rate limiting was off for this run"
