#!/usr/bin/env bash
# Benchmark: many clients on one Postgres (issue 18, "Many clients"). On a fresh database with N clients
# (default 1,000) it times, each against its goal:
#   - creating the N clients through the operator's command (`api clients create`), one after another: mean and
#     p95 per client (goal <= 0.3 s each; the figure includes starting the command), with a spare schema ready
#     (made untimed before each, as the worker keeps them ready) and, for every 20th client, with none;
#   - `api migrate` with nothing pending (goal <= 5 s);
#   - the start of `api serve` until /readyz answers 200, and of `worker` until its /metrics answers (it binds
#     after migrating and connecting to the queue) (goal <= 5 s each);
#   - request latency with N clients present: p50/p95 of 50 requests to the CRM lists and to Contact Search
#     page 1 of the last client created (no goal in the issue beyond "keeps its latency"; compare with N small);
#   - one new tenant migration (`alter table contacts add column bench_x int`, from a temporary folder through
#     `api migrate --extra-tenant-migrations`) applied to all N schemas (goal <= 60 s), then checked on each.
#
#   tests/bench/tenants.sh [N]
#
# BENCH_DB (default compass_bench_tenants) is dropped and recreated; PROFILE=debug uses the debug build (quick
# small-N checks only; the goals are for the release build). Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

N=${1:-1000}
DB=${BENCH_DB:-compass_bench_tenants}
WORK="$DATA/bench-tenants"; rm -rf "$WORK"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database "$DB"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-tenants-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret"
export RUST_LOG=warn WEB_DIST="$WORK/web" AUTH_ATTEMPTS_PER_ADDRESS=0 AUTH_ATTEMPTS_PER_ACCOUNT=0
export PORT=$(free_port) SMTP_URL="smtp://127.0.0.1:9" SCHEDULE_SECONDS=3600 SEND_JOURNAL_DIR="$WORK/journal"
export WORKER_METRICS_ADDR="127.0.0.1:$(free_port)"
# The worker started below to time its start makes no spares: the creations here prepare their own.
export SPARE_SCHEMAS=0
mkdir -p "$WEB_DIST"; echo '<!doctype html>' > "$WEB_DIST/index.html"

PROFILE=${PROFILE:-release}
say "building the $PROFILE api and worker"
if [ "$PROFILE" = release ]; then cargo build -q --release --bin api --bin worker; else cargo build -q --bin api --bin worker; fi
API="$ROOT/target/$PROFILE/api"
WORKER="$ROOT/target/$PROFILE/worker"
"$API" migrate >/dev/null

now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.3f}')"; }
# Prints "<label>: <figure> (goal <= <goal>) <ok|MISSED>" for a figure in seconds.
report() {
  python3 -c "
v, g = float('$2'), float('$3')
print(f'$1: {v:.3f} s (goal <= {g:g} s) ' + ('ok' if v <= g else 'MISSED'))"
}
# Mean and p95 of the numbers (seconds) in file $1, labelled $2, against goal $3 (for both).
stats() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
t = sorted(float(x) for x in open(sys.argv[1]) if x.strip())
pct = lambda p: t[min(len(t) - 1, int(round(p / 100 * len(t) + 0.5)) - 1)]
goal = float(sys.argv[3])
mean = sum(t) / len(t)
ok = lambda v: "ok" if v <= goal else "MISSED"
print(f"{sys.argv[2]}, {len(t)}: mean {mean:.3f} s ({ok(mean)}), p95 {pct(95):.3f} s ({ok(pct(95))}), "
      f"max {t[-1]:.3f} s (goal <= {goal:g} s each)")
PY
}
# p50/p95 in ms of the numbers (seconds) in file $1, labelled $2.
latency() {
  python3 - "$1" "$2" <<'PY'
import sys
t = sorted(float(x) * 1000 for x in open(sys.argv[1]) if x.strip())
pct = lambda p: t[min(len(t) - 1, int(round(p / 100 * len(t) + 0.5)) - 1)]
print(f"{sys.argv[2]}, {len(t)} requests: p50 {pct(50):.1f} ms, p95 {pct(95):.1f} ms, max {t[-1]:.1f} ms "
      "(goal: as with few clients)")
PY
}

# A spare schema is made before each creation, untimed, as the worker keeps SPARE_SCHEMAS ready in production;
# every 20th client is created with none ready, to time the fallback (the schema made and migrated there).
say "creating $N clients with \`api clients create\`"
: > "$WORK/create.txt"; : > "$WORK/create-no-spare.txt"
for i in $(seq -w 1 "$N"); do
  if [ $((10#$i % 20)) = 0 ]; then out="$WORK/create-no-spare.txt"
  else out="$WORK/create.txt"; "$API" clients prepare-spares --count 1 >/dev/null; fi
  t0=$(now)
  "$API" clients create --short "bench$i" --name "Bench client $i" >/dev/null
  secs "$t0" "$(now)" >> "$out"
  if [ $((10#$i % 100)) = 0 ]; then echo "  $((10#$i)) created"; fi
done
SPARES_LEFT=$(psql -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -tAc "select count(*) from spare_schemas")
[ "$SPARES_LEFT" = 0 ] || die "expected every spare taken, $SPARES_LEFT left"
LAST="bench$(seq -w 1 "$N" | tail -n1)"
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --first Bench --last User --admin >/dev/null

say "api migrate with nothing pending on $N schemas"
t0=$(now); "$API" migrate > "$WORK/migrate-noop.txt"; MIGRATE_NOOP=$(secs "$t0" "$(now)")
grep -q "migrated: 0 of $N " "$WORK/migrate-noop.txt" || die "expected nothing pending: $(cat "$WORK/migrate-noop.txt")"

PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT
# Seconds from now until curl -sf $1 answers; dies after 120 s.
until_answers() {
  local t0; t0=$(now)
  for _ in $(seq 1 2400); do
    if curl -sf -o /dev/null "$1"; then secs "$t0" "$(now)"; return; fi
    sleep 0.05
  done
  die "$1 did not answer within 120 s"
}
say "starting api serve and worker"
BASE="http://127.0.0.1:$PORT"
t0=$(now)
"$API" serve > "$WORK/api.log" 2>&1 &
PIDS+=($!)
API_START=$(until_answers "$BASE/readyz")
curl -sf "$BASE/readyz" > "$WORK/readyz.json"
"$WORKER" > "$WORK/worker.log" 2>&1 &
PIDS+=($!)
WORKER_START=$(until_answers "http://$WORKER_METRICS_ADDR/metrics")

say "request latency with $N clients"
CLIENT_ID=$(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c "select id from clients where short_name = '$LAST'")
TOKEN=$(bench_token "$BASE" "$CLIENT_ID")
get() {
  curl -sf -o /dev/null -w '%{time_total}\n' "$BASE$1" -H "authorization: Bearer $TOKEN" \
    -H "client-short: $LAST" -H "client-id: $CLIENT_ID"
}
for page in /api/crm-list /api/contacts; do
  for _ in 1 2 3 4 5; do get "$page" >/dev/null; done
  for _ in $(seq 1 50); do get "$page"; done > "$WORK/latency-${page##*/}.txt"
done
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
PIDS=()

say "one new tenant migration applied to $N schemas"
mkdir -p "$WORK/extra"
echo 'alter table contacts add column bench_x int;' > "$WORK/extra/20261125003998_bench_column.sql"
t0=$(now); "$API" migrate --extra-tenant-migrations "$WORK/extra" > "$WORK/migrate-new.txt"; MIGRATE_NEW=$(secs "$t0" "$(now)")
grep -q "migrated: $N of $N " "$WORK/migrate-new.txt" || die "expected $N schemas migrated: $(cat "$WORK/migrate-new.txt")"
WITH_COLUMN=$(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB" -c \
  "select count(*) from information_schema.columns where table_name = 'contacts' and column_name = 'bench_x'
     and table_schema like 'client_bench%'")
[ "$WITH_COLUMN" = "$N" ] || die "bench_x is in $WITH_COLUMN schemas, not $N"

echo
echo "tenants benchmark, $N clients, $PROFILE build ($(date -u +%F), load $(cut -d' ' -f1-3 /proc/loadavg)):"
stats "$WORK/create.txt" "  creating a client (api clients create), a spare ready" 0.3
stats "$WORK/create-no-spare.txt" "  creating a client with no spare ready (the fallback; every 20th)" 0.3
report "  api migrate, nothing pending on $N schemas" "$MIGRATE_NOOP" 5
report "  api serve start until /readyz 200" "$API_START" 5
report "  worker start until /metrics answers" "$WORKER_START" 5
latency "$WORK/latency-crm-list.txt" "  GET /api/crm-list (client $LAST)"
latency "$WORK/latency-contacts.txt" "  GET /api/contacts (client $LAST)"
report "  one new tenant migration on $N schemas (bench_x in all $WITH_COLUMN)" "$MIGRATE_NEW" 60
echo "  /readyz said: $(cat "$WORK/readyz.json")"
