#!/usr/bin/env bash
# Benchmark: an ActBlue export of N line items (default 1,000,000; 33 columns, BOM, CRLF, quoted commas, refcodes,
# multi-line receipts, a refunded line in fifty) imported through the real endpoint and worker (release build),
# against a floor measured in the same run: PostgreSQL COPY of the same file plus the set-based upsert of the
# lines, the donors' contacts and the source codes. The floor writes into a second client's real tables (schema
# `client_floor`: the same indexes, foreign keys and rollup triggers the product keeps), so the ratio is what the
# import pipeline adds on top of the database work any import into this schema must do (upload, file storage,
# parsing and checking, staging, duplicates, attribution, the report). The same statements into bare tables (only
# a primary key and the unique keys) are timed too and printed for comparison. Prints rows/s, both floors, the
# ratio and the worker's peak RSS.
#
#   tests/bench/contributions_import.sh [ROWS]
#
# BENCH_DB (default compass_bench_contributions) is dropped and recreated. Not run by the test command.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

ROWS=${1:-1000000}
DB=${BENCH_DB:-compass_bench_contributions}
WORK="$DATA/bench-contributions"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database "$DB"
export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-contrib-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret" RUST_LOG=warn,worker=info WEB_DIST="$WORK/none"
# A 1,000,000-line export is about 262 MB, past the default 200 MB upload cap.
export MAX_UPLOAD_BYTES=${MAX_UPLOAD_BYTES:-600000000}
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
calc() { python3 -c "print($1)"; }
PSQL=(psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")

say "building release binaries"
cargo build -q --release --bin api --bin worker
API="$ROOT/target/release/api"; WORKER="$ROOT/target/release/worker"

CSV="$WORK/actblue-$ROWS.csv"
if [ ! -s "$CSV" ]; then
  say "generating $CSV"
  python3 - "$CSV" "$ROWS" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
header = ("Receipt ID,Date,Amount,Recurring Total Months,Recurrence Number,Recipient,Fundraising Page,"
          "Fundraising Partner,Reference Code 2,Reference Code,Donor First Name,Donor Last Name,Donor Addr1,"
          "Donor City,Donor State,Donor ZIP,Donor Country,Donor Occupation,Donor Employer,Donor Email,Donor Phone,"
          "Refund ID,Refund Date,Fee,Reserved,Lineitem ID,AB Test Name,AB Variation,Recipient Committee,Reserved,"
          "Mobile,Reserved,Comments")
codes = ["em_20260105_winter_push_a", "em_20260212_valentine_b", "fb_20251120_gotv_a", "homepage", "", ""]
with open(path, "w", encoding="utf-8", newline="") as f:
    f.write("\ufeff" + header + "\r\n")
    for i in range(n):
        donor = (i * 7919) % (n // 3 + 1)
        cents = 500 + (i * 2654435761) % 25000
        day = 1 + i % 28
        refund = f"RF{i}" if i % 50 == 0 else ""
        f.write(
            f"AB{i - (i % 10 == 1)},2026-{1 + i % 12:02d}-{day:02d} {i % 24:02d}:{i % 60:02d}:00,"
            f"{cents // 100}.{cents % 100:02d},{12 if i % 6 == 0 else ''},{1 + i % 12 if i % 6 == 0 else ''},"
            f"Friends of Test,main-page,,footer,{codes[i % 6]},Donor{donor},Doe,\"12 Main St, Apt 4\",Springfield,"
            f"IL,62701,United States,Teacher,None,donor{donor}@example.org,555-0100,{refund},"
            f"{'2026-12-01 10:00:00' if refund else ''},{cents * 4 // 10000}.{(cents * 4 // 100) % 100:02d},,"
            f"{1000000 + i},,,Friends of Test,,{'t' if i % 3 else 'f'},,\"Thanks, keep going\"\r\n")
PY
fi

"$API" migrate >/dev/null
"$API" clients create --short floor --name "Floor" >/dev/null

# The staging COPY and the set-based upsert, written once for both floors (the schema is set before it).
FLOOR_SQL=$(cat <<SQL
begin;
create temp table staging (receipt text, date text, amount text, months text, num text, recipient text, page text,
  partner text, refcode2 text, refcode text, first text, last text, addr text, city text, state text, zip text,
  country text, occupation text, employer text, email text, phone text, refund_id text, refund_date text, fee text,
  r1 text, line text, ab text, abv text, committee text, r2 text, mobile text, r3 text, comments text) on commit drop;
\copy staging from '$CSV' with (format csv, header, encoding 'UTF8')
insert into contacts (email, first_name, last_name)
  select distinct on (lower(email)) lower(email), first, last from staging order by lower(email)
  on conflict do nothing;
insert into source_codes (code) select distinct refcode from staging where refcode <> '' on conflict do nothing;
insert into contributions (platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email, first_name,
                           last_name, refcode, source_code_id, refund_id, refunded_at)
  select 'actblue', s.line, s.receipt, s.date::timestamp at time zone 'America/New_York', s.amount::numeric,
         s.fee::numeric, c.id, lower(s.email), s.first, s.last, s.refcode, sc.id, nullif(s.refund_id, ''),
         nullif(s.refund_date, '')::timestamp at time zone 'America/New_York'
  from staging s left join contacts c on c.email = lower(s.email) left join source_codes sc on sc.code = s.refcode
  on conflict do nothing;
commit;
SQL
)

say "floor: COPY + set-based upsert of lines, contacts and source codes into bare tables ($ROWS rows)"
start=$(date +%s.%N)
"${PSQL[@]}" <<SQL
create schema floor;
set search_path = floor;
create table contacts (id bigint generated always as identity primary key, email text not null unique,
                       first_name text, last_name text, origin_code_id bigint);
create table source_codes (id bigint generated always as identity primary key, code text not null unique);
create table contributions (id bigint generated always as identity primary key, platform text, line_item_id text,
  receipt_id text, paid_at timestamptz, amount numeric(14, 2), fee numeric(14, 2), contact_id bigint, email text,
  first_name text, last_name text, refcode text, source_code_id bigint, refund_id text, refunded_at timestamptz,
  unique (platform, line_item_id));
$FLOOR_SQL
SQL
bare_floor=$(calc "$(date +%s.%N) - $start")

say "floor: the same into a client's real tables ($ROWS rows)"
start=$(date +%s.%N)
"${PSQL[@]}" <<SQL
set search_path = client_floor, public, extensions;
$FLOOR_SQL
SQL
floor=$(calc "$(date +%s.%N) - $start")

"$API" clients create --short bench --name "Bench" >/dev/null
CLIENT_ID=$("${PSQL[@]}" -tA -c "select id from clients where short_name = 'bench'")
COMPASS_USER_PASSWORD="Bench-passw0rd" "$API" users create --email bench@compass.test --admin >/dev/null
"$WORKER" >"$WORK/worker.log" 2>&1 &
WORKER_PID=$!
"$API" serve >"$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID $WORKER_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

BASE="http://127.0.0.1:$PORT"
json() { python3 -c "import sys,json; print(json.load(sys.stdin)$1)"; }
TOKEN=$(bench_token "$BASE" "$CLIENT_ID")
H=(-H "Authorization: Bearer $TOKEN" -H "client-short: bench" -H "client-id: $CLIENT_ID")

say "real: upload through the api, import by the worker"
t0=$(date +%s.%N)
id=$(curl -sf "${H[@]}" -F "file=@$CSV" -F platform=actblue "$BASE/api/contributions/import" | json '["id"]')
while [ "$(curl -sf "${H[@]}" "$BASE/api/jobs/$id" | json '["completed"]')" != True ]; do sleep 0.2; done
real=$(calc "$(date +%s.%N) - $t0")
curl -sf "${H[@]}" "$BASE/api/jobs/$id" | json '.get("result") or {}' >&2
peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$WORKER_PID/status")
stored=$("${PSQL[@]}" -tA -c "select (select count(*) from client_bench.contributions) || ' lines, ' ||
                                      (select count(*) from client_bench.contacts) || ' contacts, ' ||
                                      (select count(*) from client_bench.source_codes) || ' source codes'")

printf '\nrows            %d\n' "$ROWS"
printf 'floor           %.2f s  (into a client schema: its indexes, foreign keys and rollup triggers)\n' "$floor"
printf 'bare floor      %.2f s  (the same statements into tables with only their keys)\n' "$bare_floor"
printf 'real            %.2f s  (%.0f rows/s, upload + queue + import)\n' "$real" "$(calc "$ROWS / $real")"
printf 'ratio           %.2f  (real / floor into a client schema)\n' "$(calc "$real / $floor")"
printf 'ratio (bare)    %.2f  (real / bare floor; target <= 1.5)\n' "$(calc "$real / $bare_floor")"
printf 'load average    %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'worker peak RSS %d MB  (target <= 256)\n' "$((peak_kb / 1024))"
printf 'stored          %s\n' "$stored"
