#!/usr/bin/env bash
# Benchmark: the agency's portfolio (GET /api/portfolio, issue 32) with N small demo clients (default 200), each
# seeded by `api demo` (CONTACTS contacts and GIFTS gifts each, default 300 / 1,500), for an administrator who may
# use all of them. The api answers from the figures stored per client (client_portfolio_figures, which the
# worker refreshes every 5 minutes; no worker runs here: the first request reads every client in its schema and
# stores the rows, as a request does for clients without one). Prints p50/p95/max of:
#   - cold requests: the first request after each of COLD api restarts (default 5): nothing in the api's memory,
#     every granted client's stored row read with one query — the figure the target is about (p95 <= 300 ms at
#     200 clients);
#   - warm requests: REQUESTS (default 50) more (the api keeps no answer, so warm differs from cold only by the
#     api's warmed connections and caches of sessions and clients);
#   - unstored: UNSTORED (default 1) requests right after every stored row is deleted, when every client is read
#     in its schema during the request (a few at a time): what a page costs before the worker's first pass;
#   - the floor: the same number of GET /auth-api/session/clients (the same sign-in check and grants read, no
#     client's figures);
# and the load average.
#
#   tests/bench/portfolio.sh [N] [REQUESTS]
#
# BENCH_DB (default compass_bench_portfolio) is dropped and recreated; PROFILE=debug uses the debug build (quick
# small-N checks only; the target is for the release build). Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

N=${1:-200}
REQUESTS=${2:-50}
COLD=${COLD:-5}
UNSTORED=${UNSTORED:-1}
CONTACTS=${CONTACTS:-300}
GIFTS=${GIFTS:-1500}
DB=${BENCH_DB:-compass_bench_portfolio}
WORK="$DATA/bench-portfolio"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database "$DB"
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-portfolio-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret"
export RUST_LOG=warn WEB_DIST="$WORK/none" AUTH_ATTEMPTS_PER_ADDRESS=0 AUTH_ATTEMPTS_PER_ACCOUNT=0
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$WEB_DIST"; echo '<!doctype html>' > "$WEB_DIST/index.html"

PROFILE=${PROFILE:-release}
say "building the $PROFILE api"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api; else cargo build -q --bin api; fi
API="${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE/api"
"$API" migrate >/dev/null
say "seeding $N demo clients of $CONTACTS contacts and $GIFTS gifts"
start=$(date +%s)
for i in $(seq -w 1 "$N"); do
  "$API" demo --short "pf$i" --name "Portfolio client $i" --contacts "$CONTACTS" --gifts "$GIFTS" >/dev/null
done
say "seeded in $(( $(date +%s) - start )) s"
psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "vacuum analyze" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --first Bench --last User --admin >/dev/null

BASE="http://127.0.0.1:$PORT"
API_PID=
trap '[ -z "$API_PID" ] || kill $API_PID 2>/dev/null || true' EXIT
serve() {
  [ -z "$API_PID" ] || { kill "$API_PID"; wait "$API_PID" 2>/dev/null || true; }
  "$API" serve >> "$WORK/api.log" 2>&1 &
  API_PID=$!
  for _ in $(seq 1 200); do curl -sf "$BASE/healthz" >/dev/null && return; sleep 0.1; done
  die "the api did not start"
}
serve
TOKEN=$(curl -sf "$BASE/auth-api/auth/login" -H 'content-type: application/json' \
  -d '{"username":"bench@compass.test","password":"Bench-passw0rd"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
get() { curl -sf -o /dev/null -w '%{time_total}\n' "$BASE$1" -H "authorization: Bearer $TOKEN"; }
ROWS=$(curl -sf "$BASE/api/portfolio" -H "authorization: Bearer $TOKEN" \
  | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(1 for c in d["clients"] if c["figures"]))')
[ "$ROWS" -ge "$N" ] || die "expected $N clients with figures, got $ROWS"

: > "$WORK/cold.txt"
for _ in $(seq 1 "$COLD"); do serve; get /api/portfolio >> "$WORK/cold.txt"; done
for _ in $(seq 1 "$REQUESTS"); do get /api/portfolio; done > "$WORK/warm.txt"
for _ in $(seq 1 "$REQUESTS"); do get /auth-api/session/clients; done > "$WORK/floor.txt"
: > "$WORK/unstored.txt"
for _ in $(seq 1 "$UNSTORED"); do
  psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "delete from client_portfolio_figures" >/dev/null
  get /api/portfolio >> "$WORK/unstored.txt"
done
python3 - "$WORK" "$N" <<'PY'
import sys
def stats(name):
    t = sorted(float(x) * 1000 for x in open(f"{sys.argv[1]}/{name}.txt") if x.strip())
    pct = lambda p: t[min(len(t) - 1, int(round(p / 100 * len(t) + 0.5)) - 1)]
    return f"{len(t)} requests: p50 {pct(50):.1f} ms, p95 {pct(95):.1f} ms, max {t[-1]:.1f} ms"
print(f"GET /api/portfolio with {int(sys.argv[2])} clients, cold (after a restart, stored rows) {stats('cold')} "
      "(target p95 <= 300 ms at 200 clients)")
print(f"GET /api/portfolio warm (stored rows) {stats('warm')}")
print(f"GET /api/portfolio unstored (every client read in the request) {stats('unstored')}")
print(f"floor GET /auth-api/session/clients {stats('floor')}")
print(f"load average {open('/proc/loadavg').read().split()[0]}")
PY
