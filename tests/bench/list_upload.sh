#!/usr/bin/env bash
# Benchmark: a CSV of N rows (Email, First, Last; default 1,000,000) uploaded into a new list with
# createNewContacts, through the real endpoint and worker (release build), against a floor measured in the same
# run: PostgreSQL COPY of the same file plus set-based inserts of the contacts and memberships.
# Prints rows/s, the floor, the ratio and the worker's peak RSS. Then a 100,000-row .xlsx upload is timed.
#
#   tests/bench/list_upload.sh [ROWS] [--kill]
#
# --kill: kills the worker (SIGKILL) while the CSV import runs, starts a new one, and checks the import still
# finishes with exactly ROWS contacts and memberships (no duplicates). Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

ROWS=${1:-1000000}
KILL=${2:-}
WORK="$DATA/bench"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database compass_bench
export DATABASE_URL=$(pg_url compass_bench) REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret" RUST_LOG=warn,worker=info WEB_DIST="$WORK/none"
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
calc() { python3 -c "print($1)"; }
PSQL=(psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres compass_bench)

say "building release binaries"
cargo build -q --release --bin api --bin worker
API="$ROOT/target/release/api"; WORKER="$ROOT/target/release/worker"

CSV="$WORK/contacts-$ROWS.csv"
if [ ! -s "$CSV" ]; then
  say "generating $CSV"
  python3 - "$CSV" "$ROWS" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
firsts = ["Maria", "James", "Aisha", "Robert", "Chen", "Linda", "Diego", "Grace"]
lasts = ["Garcia", "Johnson", "Okafor", "Smith", "Nguyen", "Patel", "Brown", "Kim"]
with open(path, "w") as f:
    f.write("Email,First,Last\n")
    for i in range(n):
        f.write(f"person{i}@example.org,{firsts[i % 8]},{lasts[(i // 8) % 8]}\n")
PY
fi

say "floor: COPY + set-based inserts of contacts and memberships ($ROWS rows)"
start=$(date +%s.%N)
"${PSQL[@]}" <<SQL
create schema floor;
set search_path = floor;
create table contacts (id bigint generated always as identity primary key, email text not null unique,
                       first_name text, last_name text);
create table members (list_id bigint, contact_id bigint, primary key (list_id, contact_id));
begin;
create temp table staging (email text, first_name text, last_name text) on commit drop;
\copy staging from '$CSV' with (format csv, header)
insert into contacts (email, first_name, last_name)
  select lower(btrim(email)), first_name, last_name from staging on conflict do nothing;
insert into members select 1, c.id from staging s join contacts c on c.email = lower(btrim(s.email))
  on conflict do nothing;
commit;
SQL
floor=$(calc "$(date +%s.%N) - $start")

"$API" migrate >/dev/null
"$API" clients create --short bench --name "Bench" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --admin >/dev/null
"$WORKER" >"$WORK/worker.log" 2>&1 &
echo $! >"$WORK/worker.pid"
"$API" serve >"$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID "$(cat "$WORK/worker.pid")" 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

BASE="http://127.0.0.1:$PORT"
json() { python3 -c "import sys,json; print(json.load(sys.stdin)$1)"; }
TOKEN=$(bench_token "$BASE" 1)
H=(-H "Authorization: Bearer $TOKEN" -H "client-short: bench" -H "client-id: 1")

# Uploads $1 as list $2 and waits for the job; prints the seconds it took.
upload() {
  local t0 id status
  t0=$(date +%s.%N)
  id=$(curl -sf "${H[@]}" -F "file=@$1" "$BASE/api/crm-list/upload?name=$2&createNewContacts=1" | json '["id"]')
  while :; do
    status=$(curl -sf "${H[@]}" "$BASE/api/jobs/$id" | json '["completed"]')
    [ "$status" = True ] && break
    if [ -n "$KILL" ] && [ -z "${killed:-}" ] && [ "$(curl -sf "${H[@]}" "$BASE/api/jobs/$id" | json '["status"]')" = running ]; then
      sleep 1; kill -9 "$(cat "$WORK/worker.pid")"; killed=1
      echo "worker killed mid-import; starting another" >&2
      "$WORKER" >>"$WORK/worker.log" 2>&1 &
      echo $! >"$WORK/worker.pid"
    fi
    sleep 0.2
  done
  curl -sf "${H[@]}" "$BASE/api/jobs/$id" | json '["result"]["message"]' >&2
  calc "$(date +%s.%N) - $t0"
}

say "real: upload through the api, import by the worker"
real=$(upload "$CSV" bench-csv)
peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$(cat "$WORK/worker.pid")/status")
counts=$("${PSQL[@]}" -tA -c "select (select count(*) from client_bench.contacts) || ' contacts, ' ||
                                      (select count(*) from client_bench.crm_list_members) || ' memberships'")

printf '\nrows            %d\n' "$ROWS"
printf 'floor           %.2f s\n' "$floor"
printf 'real            %.2f s  (%.0f rows/s, upload + queue + import)\n' "$real" "$(calc "$ROWS / $real")"
printf 'ratio           %.2f  (target <= 1.5)\n' "$(calc "$real / $floor")"
printf 'worker peak RSS %d MB  (target < 256)\n' "$((peak_kb / 1024))"
printf 'stored          %s\n' "$counts"

XLSX="$WORK/contacts-100k.xlsx"
if [ ! -s "$XLSX" ]; then
  python3 -c 'import openpyxl' 2>/dev/null || pip install -q openpyxl
  python3 - "$XLSX" <<'PY'
import sys, openpyxl
wb = openpyxl.Workbook(write_only=True); ws = wb.create_sheet()
ws.append(["Email", "First", "Last"])
for i in range(100000):
    ws.append([f"sheet{i}@example.org", "Ann", "Lee"])
wb.save(sys.argv[1])
PY
fi
KILL=
xlsx=$(upload "$XLSX" bench-xlsx)
printf 'xlsx 100k rows  %.2f s  (target < 30 s)\n' "$xlsx"
