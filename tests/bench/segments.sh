#!/usr/bin/env bash
# Benchmark: segments on a large client (default 1,000,000 contacts, 3,000,000 gifts, 10,000,000 e-mail events;
# a SCALE argument below 1 shrinks all three). Through the real api and worker (release build):
#   - a three-condition segment computed by the "Update Segment" job (target ≤ 3 s),
#   - the live count preview of that rule, 20 calls, p50 and p95 (target p95 ≤ 1 s),
#   - RFM scores for every donor plus a one-condition RFM segment, one job (target ≤ 10 s).
#
#   tests/bench/segments.sh [SCALE]      e.g. tests/bench/segments.sh 0.1
#
# BENCH_DB (default compass_bench_segments) is dropped and recreated; PROFILE=debug uses the debug build (when a
# release build does not fit the time; its figures are then slower than release). BENCH_REUSE=1 keeps the database
# of the previous run (migrating it to the current build) and only measures again: its two bench segments and the
# RFM scores are deleted first, so RFM is again a first computation. Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

SCALE=${1:-1}
DB=${BENCH_DB:-compass_bench_segments}
WORK="$DATA/bench-segments"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
REUSE=${BENCH_REUSE:-0}
[ "$REUSE" = 1 ] || fresh_database "$DB"
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-seg-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret" RUST_LOG=warn WEB_DIST="$WORK/none"
# The scheduler's nightly pass would compute every segment at start: keep it away from the measurements.
export SCHEDULE_SECONDS=86400
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
calc() { python3 -c "print($1)"; }
PSQL=(psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")
CONTACTS=$(calc "int(1000000 * $SCALE)"); GIFTS=$(calc "int(3000000 * $SCALE)"); EVENTS=$(calc "int(10000000 * $SCALE)")

PROFILE=${PROFILE:-release}
say "building the $PROFILE api and worker"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api --bin worker; else cargo build -q --bin api --bin worker; fi
API="$ROOT/target/$PROFILE/api"; WORKER="$ROOT/target/$PROFILE/worker"
"$API" migrate >/dev/null
if [ "$REUSE" = 1 ]; then
  say "reusing $DB"
  "${PSQL[@]}" -c "set search_path = client_bench; delete from segments where name in ('Three conditions', 'RFM recent');
                   delete from rfm_scores"
else
"$API" clients create --short bench --name "Bench" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --admin >/dev/null

say "filling: $CONTACTS contacts, $GIFTS gifts, $EVENTS e-mail events"
"${PSQL[@]}" <<SQL
set search_path = client_bench;
insert into origin_codes (name) select 'code-' || g from generate_series(1, 20) g;
insert into contacts (email, origin_code_id, subscription, created)
select 'c' || g || '@example.org', 1 + g % 20,
       case when g % 17 = 0 then 'unsubscribed' when g % 53 = 0 then 'bounced' else 'subscribed' end,
       now() - make_interval(days => g % 1500)
from generate_series(1, $CONTACTS) g;
insert into source_codes (code, parsed, channel, campaign)
select 'em_' || g, true, case when g % 3 = 0 then 'fb' else 'em' end, 'camp' || (g % 10) from generate_series(1, 200) g;
insert into contributions (platform, line_item_id, paid_at, amount, contact_id, recurring_months, source_code_id, state, zip)
select 'actblue', 'L' || g, now() - make_interval(days => ((g * 7919) % 1100)::int, secs => g % 86400),
       (5 + (g * 2654435761) % 500)::numeric / 2, 1 + (g * 48271) % ($CONTACTS / 3),
       case when g % 9 = 0 then 0 end, 1 + g % 200,
       (array['NY','CA','TX','FL','IL'])[1 + g % 5], lpad(((g * 31) % 99999)::text, 5, '0')
from generate_series(1::bigint, $GIFTS) g;
insert into mailings (name, subject_line) select 'M' || g, 'S' from generate_series(1, 100) g;
insert into mailing_events (mailing_id, contact_id, kind, machine, created)
select 1 + g % 100, 1 + (g * 69621) % $CONTACTS, case when g % 4 = 0 then 'click' else 'open' end, g % 5 = 0,
       now() - make_interval(days => (g % 365)::int)
from generate_series(1::bigint, $EVENTS) g;
analyze;
SQL
fi

"$WORKER" >"$WORK/worker.log" 2>&1 &
WORKER_PID=$!
"$API" serve >"$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID $WORKER_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

BASE="http://127.0.0.1:$PORT"
json() { python3 -c "import sys,json; print(json.load(sys.stdin)$1)"; }
TOKEN=$(bench_token "$BASE" 1)
H=(-H "Authorization: Bearer $TOKEN" -H "client-short: bench" -H "client-id: 1" -H 'content-type: application/json')

RULE='{"op":"and","conditions":[
  {"field":"gave","op":"withinDays","value":365},
  {"field":"totalGiven","op":"gte","value":"100"},
  {"field":"opened","op":"withinDays","value":90}]}'
RFM_RULE='{"op":"and","conditions":[{"field":"rfmRecency","op":"gte","value":4}]}'

compute() { # name rule → seconds from queueing the job to its end
  local seg job t0
  seg=$(curl -sf "${H[@]}" "$BASE/api/segments" -d "{\"name\":\"$1\",\"rule\":$2}" | json '["id"]')
  t0=$(date +%s.%N)
  job=$(curl -sf "${H[@]}" -X POST "$BASE/api/segments/$seg/compute" | json '["id"]')
  while [ "$(curl -sf "${H[@]}" "$BASE/api/jobs/$job" | json '["completed"]')" != True ]; do sleep 0.05; done
  calc "$(date +%s.%N) - $t0"
  curl -sf "${H[@]}" "$BASE/api/segments/$seg" | json '["size"]' >&2
}

say "three-condition segment"
three=$(compute "Three conditions" "$RULE")
say "live count preview, 20 calls"
times=()
for _ in $(seq 20); do
  times+=("$(curl -sf -o /dev/null -w '%{time_total}' "${H[@]}" "$BASE/api/segments/preview" -d "{\"rule\":$RULE}")")
done
read -r p50 p95 < <(python3 -c "import sys; t=sorted(map(float, sys.argv[1:])); print(t[len(t)//2], t[int(len(t)*0.95)-1])" "${times[@]}")
say "floors: GET /healthz (20 calls) and one bare scan of the gifts in SQL"
floor_http=()
for _ in $(seq 20); do floor_http+=("$(curl -sf -o /dev/null -w '%{time_total}' "$BASE/healthz")"); done
read -r f50 f95 < <(python3 -c "import sys; t=sorted(map(float, sys.argv[1:])); print(t[len(t)//2], t[int(len(t)*0.95)-1])" "${floor_http[@]}")
t0=$(date +%s.%N)
"${PSQL[@]}" -tA -c "select count(distinct contact_id) from client_bench.contributions" >/dev/null
floor_sql=$(calc "$(date +%s.%N) - $t0")
say "RFM scores for every donor + an RFM segment"
rfm=$(compute "RFM recent" "$RFM_RULE")
donors=$("${PSQL[@]}" -tA -c "select count(*) from client_bench.rfm_scores")

printf '\n%s build; contacts %d, gifts %d, e-mail events %d\n' "$PROFILE" "$CONTACTS" "$GIFTS" "$EVENTS"
printf 'three-condition segment compute   %.2f s   (target <= 3 s)\n' "$three"
printf 'live count preview                p50 %.3f s, p95 %.3f s   (target p95 <= 1 s)\n' "$p50" "$p95"
printf 'RFM (%d donors) + RFM segment     %.2f s   (target <= 10 s)\n' "$donors" "$rfm"
printf 'floors: GET /healthz p50 %.3f s, p95 %.3f s; bare scan of the gifts %.2f s\n' "$f50" "$f95" "$floor_sql"
printf 'ratios: preview p95 / healthz p95 %.1f; segment compute / bare scan %.1f; RFM / bare scan %.1f\n' \
  "$(calc "$p95 / $f95")" "$(calc "$three / $floor_sql")" "$(calc "$rfm / $floor_sql")"
