#!/usr/bin/env bash
# Benchmark: Contact Search and the list export at a client of N contacts (default 1,000,000).
# Builds the client with set-based SQL (names and e-mails like the import benchmark's), then asks each page
# REPS times (default 20) through the real api and prints p50/p95 in ms; the export prints its time and the api's
# peak RSS while it streams.
#
#   tests/bench/pages.sh [CONTACTS] [REPS]          PROFILE=debug uses the debug build (default release)
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

N=${1:-1000000}
REPS=${2:-20}
PROFILE=${PROFILE:-release}
WORK="$DATA/bench-pages"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database compass_bench_pages
export DATABASE_URL=$(pg_url compass_bench_pages) REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-pages-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret" RUST_LOG=warn WEB_DIST="$WORK/none"
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PSQL=(psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres compass_bench_pages)

if [ "$PROFILE" = release ]; then cargo build -q --release --bin api; else cargo build -q --bin api; fi
API="$ROOT/target/$PROFILE/api"
"$API" migrate >/dev/null
"$API" clients create --short bench --name "Bench" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --admin >/dev/null

say "building $N contacts"
start=$(date +%s.%N)
"${PSQL[@]}" <<SQL
set search_path = client_bench;
insert into origin_codes (name) values ('bench');
insert into contacts (email, first_name, last_name, origin_code_id, created)
select 'person' || g || '@' || (array['example.org','mail.test','inbox.test'])[1 + g % 3],
       (array['Maria','James','Aisha','Robert','Chen','Linda','Diego','Grace'])[1 + g % 8],
       (array['Garcia','Johnson','Okafor','Smith','Nguyen','Patel','Brown','Kim'])[1 + (g / 8) % 8] || (g % 997),
       (select id from origin_codes), timestamptz '2024-01-01' + (g || ' seconds')::interval
from generate_series(1, $N) g;
insert into crm_lists (name, origin_code_ids) select 'Everyone', array[id] from origin_codes;
-- As autovacuum does after a bulk insert (PG 13+): hint bits and the visibility map set, so a first search
-- does not pay for writing them.
vacuum analyze contacts;
SQL
say "built in $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"

"$API" serve >"$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
BASE="http://127.0.0.1:$PORT"
TOKEN=$(bench_token "$BASE" 1)
H=(-H "Authorization: Bearer $TOKEN" -H "client-short: bench" -H "client-id: 1")

# A cursor half way down the newest-first order, as if someone had pressed Next N/50 times.
MID=$("${PSQL[@]}" -Atc "select (extract(epoch from created) * 1000000)::bigint || '_' || id
  from client_bench.contacts order by created desc, id desc offset $((N / 2)) limit 1")
LIST=$("${PSQL[@]}" -Atc "select id from client_bench.crm_lists limit 1")

# Asks $2 REPS times and prints "$1 p50 p95" in ms.
page() {
  local name=$1 path=$2 times=()
  curl -sf "${H[@]}" "$BASE$path" -o /dev/null || die "$path failed"
  for _ in $(seq "$REPS"); do times+=("$(curl -sf "${H[@]}" "$BASE$path" -o /dev/null -w '%{time_total}')"); done
  python3 - "$name" "${times[@]}" <<'PY'
import sys, statistics
name, t = sys.argv[1], sorted(float(x) * 1000 for x in sys.argv[2:])
p95 = t[min(len(t) - 1, int(round(0.95 * len(t))) - 1)]
print(f"{name:<40} p50 {statistics.median(t):7.1f} ms   p95 {p95:7.1f} ms")
PY
}

say "pages at $N contacts, $REPS requests each"
page "search, page 1 (about N)" "/api/contacts?pageSize=50"
page "search, next page half way (cursor)" "/api/contacts?pageSize=50&after=$MID"
page "search, page 100 (offset 4,950)" "/api/contacts?pageSize=50&page=100"
page "search q=garcia42 (name, substring)" "/api/contacts?pageSize=50&q=garcia42"
page "search q=son1 (name, common)" "/api/contacts?pageSize=50&q=son1"
page "search q=person77777 (e-mail, prefix)" "/api/contacts?pageSize=50&q=person77777"
page "search q=@inbox.test (e-mail, a third)" "/api/contacts?pageSize=50&q=%40inbox.test"
page "search q=nobody-at-all (no match)" "/api/contacts?pageSize=50&q=nobody-at-all"
page "contact detail" "/api/contacts/$((N / 2))"
page "lists" "/api/crm-list"

say "exporting the $N-member list"
peak=0
curl -sf "${H[@]}" "$BASE/api/crm-list/$LIST/download" -o "$WORK/export.csv" -w '%{time_total}\n' >"$WORK/export.time" &
CURL=$!
while kill -0 $CURL 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2}' /proc/$API_PID/status); [ "$rss" -gt "$peak" ] && peak=$rss; sleep 0.1
done
wait $CURL
echo "export: $(($(wc -l <"$WORK/export.csv") - 1)) rows in $(cat "$WORK/export.time") s; api peak RSS $((peak / 1024)) MB"
