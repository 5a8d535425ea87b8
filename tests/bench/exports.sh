#!/usr/bin/env bash
# Benchmark (issue 28 item 6): the api's and the worker's memory through the contributions exports and the report
# files of a large client. Seeds a demo client with GIFTS gifts (default 1,000,000) over two years, then downloads
# the whole range as CSV and as XLSX, and builds the SYBUNT report (every donor, as of two years after the last
# gift) as a job in both formats and downloads it; prints, for each, the rows, the time, the size and the peak RSS
# (VmHWM) of the process that wrote it.
# Target: the api stays under 256 MB (release build). The CSV is streamed from a database cursor; the XLSX sheet is
# written in constant-memory mode into a temporary file that the response then streams.
#
#   tests/bench/exports.sh [GIFTS]
#
# BENCH_DB (default compass_bench_exports) is dropped and recreated; PROFILE=debug uses the debug build. Not run by
# the test command. Run it alone: it prints the load average beside its figures.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

GIFTS=${1:-1000000}
DB=${BENCH_DB:-compass_bench_exports}
WORK="$DATA/bench-exports"; rm -rf "$WORK"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database "$DB"
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-exports-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret"
export RUST_LOG=warn WEB_DIST="$WORK/none" AUTH_ATTEMPTS_PER_ADDRESS=0 AUTH_ATTEMPTS_PER_ACCOUNT=0
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$WEB_DIST"; echo '<!doctype html>' > "$WEB_DIST/index.html"

PROFILE=${PROFILE:-release}
say "building the $PROFILE api"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api --bin worker; else cargo build -q --bin api --bin worker; fi
API="${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE/api"
WORKER="${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE/worker"
"$API" migrate >/dev/null
say "seeding a demo client with $GIFTS gifts"
"$API" demo --short bench --name "Bench" --contacts $((GIFTS / 10)) --gifts "$GIFTS" >/dev/null
psql -q -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "vacuum analyze" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --first Bench --last User --admin >/dev/null

"$API" serve > "$WORK/api.log" 2>&1 &
API_PID=$!
"$WORKER" > "$WORK/worker.log" 2>&1 &
WORKER_PID=$!
trap 'kill $API_PID $WORKER_PID 2>/dev/null || true' EXIT
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do curl -sf "$BASE/healthz" >/dev/null && break; sleep 0.2; done
json() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
CLIENT_ID=$(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "select id from clients where short_name = 'bench'")
TOKEN=$(bench_token "$BASE" "$CLIENT_ID")
RANGE=$(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c \
  "select 'from=' || min(paid_at)::date - 1 || '&to=' || max(paid_at)::date + 1 from client_bench.contributions")
IN_RANGE=$(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "select count(*) from client_bench.contributions")
rss() { awk '/VmHWM/ {print int($2 / 1024)}' "/proc/${1:-$API_PID}/status"; }

echo "exports: $IN_RANGE gifts; api peak RSS after start and sign-in: $(rss) MB"
for format in csv xlsx; do
  before=$(rss)
  took=$(curl -sf -o "$WORK/gifts.$format" -w '%{time_total}' "$BASE/api/contributions/export/$format?$RANGE" \
    -H "authorization: Bearer $TOKEN" -H "client-short: bench" -H "client-id: $CLIENT_ID")
  if [ "$format" = csv ]; then
    rows=$(python3 -c 'import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline=""))) - 1)' "$WORK/gifts.csv")
  else
    rows=$(python3 - "$WORK/gifts.xlsx" <<'PY'
import re, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("xl/worksheets/sheet1.xml") as f:
    n, tail = 0, b""
    for chunk in iter(lambda: f.read(1 << 20), b""):
        n += (tail + chunk).count(b"<row ")
        tail = chunk[-4:]  # too short to hold a match: a "<row " split across two reads is counted once
print(n - 1)
PY
)
  fi
  size=$(du -m "$WORK/gifts.$format" | cut -f1)
  echo "exports: $format $rows rows ($size MB) in ${took} s; api peak RSS $before MB before, $(rss) MB after"
done
H=(-H "authorization: Bearer $TOKEN" -H "client-short: bench" -H "client-id: $CLIENT_ID" -H 'content-type: application/json')
AS_OF=$(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "select (max(paid_at) + interval '2 years')::date from client_bench.contributions")
for format in csv xlsx; do
  start=$(date +%s.%N)
  job=$(curl -sf "${H[@]}" "$BASE/api/reports/sybunt/build" -d "{\"from\":\"$AS_OF\",\"to\":\"$AS_OF\",\"format\":\"$format\"}" | json id)
  while [ "$(curl -sf "${H[@]}" "$BASE/api/jobs/$job" | json completed)" != True ]; do sleep 0.5; done
  file=$(curl -sf "${H[@]}" "$BASE/api/jobs/$job" | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["details"]["fileId"])')
  rows=$(curl -sf "${H[@]}" "$BASE/api/jobs/$job" | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["details"]["rows"])')
  built=$(python3 -c "import time; print(round(time.time() - $start, 1))")
  before=$(rss)
  took=$(curl -sf -o "$WORK/sybunt.$format" -w '%{time_total}' "${H[@]}" "$BASE/api/report-files/$file")
  size=$(du -m "$WORK/sybunt.$format" | cut -f1)
  echo "report files: sybunt $format $rows rows ($size MB) built in $built s, worker peak RSS $(rss $WORKER_PID) MB; downloaded in $took s, api peak RSS $before MB before, $(rss) MB after"
done
echo "exports: $PROFILE build, load average $(cut -d' ' -f1-3 /proc/loadavg)"
