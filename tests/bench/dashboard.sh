#!/usr/bin/env bash
# Benchmark: the dashboard's one request (GET /api/dashboard) on a demo client of N contacts and M gifts
# (default 1,000,000 / 3,000,000, the issue's large client), release build. Prints p50/p95/max of REQUESTS
# sequential requests (default 100) after 5 warm-up requests. Target: p95 ≤ 150 ms at the default size (issue 27 item 17).
#
#   tests/bench/dashboard.sh [CONTACTS] [GIFTS] [REQUESTS]
#
# BENCH_DB (default compass_bench_dashboard) is dropped and recreated; PROFILE=debug uses the debug build (quick
# small-size checks only); BENCH_REUSE=1 keeps the database of the previous run and only times the requests (a quiet
# re-measure without seeding again). Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

CONTACTS=${1:-1000000}
GIFTS=${2:-3000000}
REQUESTS=${3:-100}
DB=${BENCH_DB:-compass_bench_dashboard}
WORK="$DATA/bench-dashboard"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
[ "${BENCH_REUSE:-0}" = 1 ] || fresh_database "$DB"
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-dashboard-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret"
export RUST_LOG=warn WEB_DIST="$WORK/none" AUTH_ATTEMPTS_PER_ADDRESS=0 AUTH_ATTEMPTS_PER_ACCOUNT=0
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$WEB_DIST"; echo '<!doctype html>' > "$WEB_DIST/index.html"

PROFILE=${PROFILE:-release}
say "building the $PROFILE api"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api; else cargo build -q --bin api; fi
API="$ROOT/target/$PROFILE/api"
if [ "${BENCH_REUSE:-0}" != 1 ]; then
  "$API" migrate >/dev/null
  say "seeding the demo client: $CONTACTS contacts, $GIFTS gifts"
  start=$(date +%s)
  "$API" demo --short bench --name "Bench" --contacts "$CONTACTS" --gifts "$GIFTS"
  say "seeded in $(( $(date +%s) - start )) s"
  psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "vacuum analyze" >/dev/null
  COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --first Bench --last User --admin >/dev/null
fi

"$API" serve > "$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null && break; sleep 0.2; done

BASE="http://127.0.0.1:$PORT"
CLIENT_ID=$(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "select id from clients where short_name = 'bench'")
TOKEN=$(bench_token "$BASE" "$CLIENT_ID")

# BENCH_PATHS (default /api/dashboard) times other pages of the same client one after the other, e.g. the
# revenue pages of issue 13: BENCH_PATHS="/api/contributions/summary /api/contribution-source-codes".
for path in ${BENCH_PATHS:-/api/dashboard}; do
  get() {
    curl -sf -o /dev/null -w '%{time_total}\n' "$BASE$path" -H "authorization: Bearer $TOKEN" \
      -H "client-short: bench" -H "client-id: $CLIENT_ID"
  }
  # A page that answers an error is fast and measures nothing: its status is printed beside its figures.
  status=$(curl -s -o /dev/null -w '%{http_code}' "$BASE$path" -H "authorization: Bearer $TOKEN" \
    -H "client-short: bench" -H "client-id: $CLIENT_ID")
  for _ in 1 2 3 4; do get >/dev/null || true; done
  for _ in $(seq 1 "$REQUESTS"); do get || true; done > "$WORK/times.txt"
  python3 - "$WORK/times.txt" "$CONTACTS" "$GIFTS" "$path [HTTP $status]" <<'PY'
import sys
t = sorted(float(x) * 1000 for x in open(sys.argv[1]) if x.strip())
pct = lambda p: t[min(len(t) - 1, int(round(p / 100 * len(t) + 0.5)) - 1)]
# Issue 27 item 17: every analytics operation, the dashboard included.
target = 150
print(f"{sys.argv[4]} at {int(sys.argv[2]):,} contacts / {int(sys.argv[3]):,} gifts, {len(t)} requests: "
      f"p50 {pct(50):.1f} ms, p95 {pct(95):.1f} ms, max {t[-1]:.1f} ms (target p95 <= {target} ms); "
      f"load average {open('/proc/loadavg').read().split()[0]}")
PY
done
