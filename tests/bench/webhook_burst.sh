#!/usr/bin/env bash
# Deadline-day burst on the ActBlue webhook, through the real api: ORDERS orders of two line items plus REPLAYS
# replays of them (default 900 + 100), all sent at once by api/examples/webhook_burst.rs, which retries a 429
# after its Retry-After as ActBlue does, asks /healthz every 50 ms and signs in every 500 ms meanwhile. Then
# checks that every line is stored exactly once and that no answer was a 5xx.
#
#   tests/bench/webhook_burst.sh [ORDERS] [REPLAYS]     PROFILE=debug uses the debug build (default release)
#   DATABASE_POOL_SIZE (default 16, the api's default) sets the api's pool.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

ORDERS=${1:-900}
REPLAYS=${2:-100}
PROFILE=${PROFILE:-release}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
DB=${BENCH_DB:-compass_bench_webhook}
WORK="$DATA/bench-webhook"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database "$DB"
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-webhook-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" RUST_LOG=warn WEB_DIST="$WORK/none"
export DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-16}
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PSQL=(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")

say "building the $PROFILE api and load client"
if [ "$PROFILE" = release ]; then FLAG=--release; else FLAG=; fi
cargo build -q $FLAG -p api --bin api --example webhook_burst
API="$TARGET/$PROFILE/api"
"$API" migrate >/dev/null
"$API" clients create --short burst --name "Burst" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --admin >/dev/null
"$API" serve >"$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

say "burst: $ORDERS orders + $REPLAYS replays at once (pool $DATABASE_POOL_SIZE)"
"$TARGET/$PROFILE/examples/webhook_burst" "http://127.0.0.1:$PORT" burst bench@compass.test Bench-passw0rd \
  "$ORDERS" "$REPLAYS" | tee "$WORK/burst.txt"
uptime

new=$(sed -n 's/^NEW_LINE_ITEMS=//p' "$WORK/burst.txt")
errors=$(sed -n 's/^ERRORS_5XX=//p' "$WORK/burst.txt")
read -r stored distinct < <("${PSQL[@]}" -F' ' -c \
  "select count(*), count(distinct line_item_id) from client_burst.contributions")
expected=$((2 * ORDERS))
printf 'lines        %s expected, %s stored (%s distinct), %s answered new, %s 5xx answers  %s\n' \
  "$expected" "$stored" "$distinct" "$new" "$errors" \
  "$([ "$stored" = "$expected" ] && [ "$distinct" = "$expected" ] && [ "$new" = "$expected" ] && [ "$errors" = 0 ] \
     && echo EXACT || echo MISMATCH)"
