#!/usr/bin/env bash
# Benchmark: the Retention page's requests (GET /api/retention, /api/retention/cohorts?by=origin,
# /api/retention/sustainers) on a demo client of N contacts and M gifts (default 1,000,000 / 3,000,000, issue 32's
# large client). Seeds the demo, rebuilds donors' acquisition (what the "Refresh Retention" job runs, timed), then
# prints per page p50/p95/max of REQUESTS sequential requests after one cold request (which computes and caches
# the figures, also printed), the floor (an authenticated trivial call, the server's own cost) and the load average.
# Target: p95 ≤ 150 ms at the default size.
#
#   tests/bench/retention.sh [CONTACTS] [GIFTS] [REQUESTS]
#
# BENCH_DB (default compass_bench_retention) is dropped and recreated; PROFILE=debug uses the debug build (small
# sizes only); BENCH_REUSE=1 keeps the previous run's database. Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

CONTACTS=${1:-1000000}
GIFTS=${2:-3000000}
REQUESTS=${3:-50}
DB=${BENCH_DB:-compass_bench_retention}
WORK="$DATA/bench-retention"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
[ "${BENCH_REUSE:-0}" = 1 ] || fresh_database "$DB"
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-retention-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret"
export RUST_LOG=warn WEB_DIST="$WORK/none" AUTH_ATTEMPTS_PER_ADDRESS=0 AUTH_ATTEMPTS_PER_ACCOUNT=0
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$WEB_DIST"; echo '<!doctype html>' > "$WEB_DIST/index.html"

PROFILE=${PROFILE:-release}
say "building the $PROFILE api"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api; else cargo build -q --bin api; fi
API="${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE/api"
PSQL=(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")
if [ "${BENCH_REUSE:-0}" != 1 ]; then
  "$API" migrate >/dev/null
  say "seeding the demo client: $CONTACTS contacts, $GIFTS gifts"
  start=$(date +%s)
  "$API" demo --short bench --name "Bench" --contacts "$CONTACTS" --gifts "$GIFTS"
  say "seeded in $(( $(date +%s) - start )) s"
  "${PSQL[@]}" -c "vacuum analyze" >/dev/null
  COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --first Bench --last User --admin >/dev/null
fi
SCHEMA=$("${PSQL[@]}" -c "select schema_name from clients where short_name = 'bench'")
start=$(date +%s%N)
"${PSQL[@]}" -c "set search_path to $SCHEMA; select refresh_retention()" >/dev/null
say "refresh_retention() (the Refresh Retention job) took $(( ($(date +%s%N) - start) / 1000000 )) ms; donor-months: $("${PSQL[@]}" -c "select count(*) from $SCHEMA.donor_months"), donors: $("${PSQL[@]}" -c "select count(*) from $SCHEMA.donor_acquisition")"

"$API" serve > "$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null && break; sleep 0.2; done

BASE="http://127.0.0.1:$PORT"
CLIENT_ID=$("${PSQL[@]}" -c "select id from clients where short_name = 'bench'")
TOKEN=$(bench_token "$BASE" "$CLIENT_ID")

get() {
  curl -sf -o /dev/null -w '%{time_total}\n' "$BASE$1" -H "authorization: Bearer $TOKEN" \
    -H "client-short: bench" -H "client-id: $CLIENT_ID"
}
for _ in $(seq 1 "$REQUESTS"); do get /api/selection/contribution-categories; done > "$WORK/floor.txt"
for path in ${BENCH_PATHS:-/api/retention /api/retention?period=fiscal_year /api/retention/cohorts?by=origin /api/retention/sustainers}; do
  cold=$(get "$path")
  for _ in $(seq 1 "$REQUESTS"); do get "$path"; done > "$WORK/times.txt"
  python3 - "$WORK/times.txt" "$WORK/floor.txt" "$CONTACTS" "$GIFTS" "$path" "$cold" <<'PY'
import sys
def pcts(f):
    t = sorted(float(x) * 1000 for x in open(f) if x.strip())
    return t, (lambda p: t[min(len(t) - 1, int(round(p / 100 * len(t) + 0.5)) - 1)])
t, pct = pcts(sys.argv[1])
floor, fpct = pcts(sys.argv[2])
print(f"{sys.argv[5]} at {int(sys.argv[3]):,} contacts / {int(sys.argv[4]):,} gifts, {len(t)} requests: "
      f"cold {float(sys.argv[6]) * 1000:.1f} ms, p50 {pct(50):.1f} ms, p95 {pct(95):.1f} ms, max {t[-1]:.1f} ms "
      f"(target p95 <= 150 ms); floor (GET /api/selection/contribution-categories, an authenticated trivial call) p50 {fpct(50):.1f} ms, p95 {fpct(95):.1f} ms; "
      f"load average {open('/proc/loadavg').read().split()[0]}")
PY
done
