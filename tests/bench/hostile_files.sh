#!/usr/bin/env bash
# Benchmark (issue 33): a corpus of hostile spreadsheets, each posted to every import endpoint at once (list,
# NGP, mapped contacts, ActBlue, mapped contributions, Meta, mapped media, external mailings) through the real
# api and a release-built worker (WORKER_CONCURRENCY=4, so four imports read at once). For each file it prints
# the jobs' errors and the worker's peak RSS (reset between files); the target is < 256 MB on every file.
# The corpus is generated (400 MB of text deflates to a few hundred KB), never committed.
#
#   tests/bench/hostile_files.sh [MB]      # MB: size of the giant cell, default 400
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

MB=${1:-400}
WORK="$DATA/bench-hostile"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database compass_bench_hostile
export DATABASE_URL=$(pg_url compass_bench_hostile) REDIS_URL=$(redis_url) JOB_QUEUE="compass-bench-hostile-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret" RUST_LOG=warn WEB_DIST="$WORK/none"
export WORKER_CONCURRENCY=4
export PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

say "building release binaries"
cargo build -q --release --bin api --bin worker
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release"

say "generating the corpus ($MB MB cells)"
python3 - "$WORK" "$MB" <<'PY'
import os, sys, zipfile
work, mb = sys.argv[1], int(sys.argv[2])
CHUNK = b"x" * (1 << 20)

def fill(out, n, byte=b"x"):
    chunk = byte * (1 << 20)
    for _ in range(n >> 20):
        out.write(chunk)
    out.write(byte * (n & ((1 << 20) - 1)))

HEAD = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
}

def workbook(name, shared, sheet):
    with zipfile.ZipFile(os.path.join(work, name), "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for part, text in HEAD.items():
            z.writestr(part, text)
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as out:
            out.write(b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')
            shared(out)
            out.write(b"</sst>")
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as out:
            out.write(b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
            sheet(out)
            out.write(b"</sheetData></worksheet>")

n = mb << 20
A1 = b'<c r="A1" t="inlineStr"><is><t>Email</t></is></c>'
def giant_shared(out):
    out.write(b"<si><t>"); fill(out, n); out.write(b"</t></si>")
workbook("shared-string.xlsx", giant_shared,
         lambda o: o.write(b'<row r="1">' + A1 + b'<c r="B1" t="s"><v>0</v></c></row>'))
def inline(o):
    o.write(b'<row r="1">' + A1 + b'<c r="B1" t="inlineStr"><is><t>'); fill(o, n); o.write(b"</t></is></c></row>")
workbook("inline-string.xlsx", lambda o: None, inline)
def number(o):
    o.write(b'<row r="1">' + A1 + b'<c r="B1"><v>'); fill(o, n, b"7"); o.write(b"</v></c></row>")
workbook("number.xlsx", lambda o: None, number)
def formula(o):
    o.write(b'<row r="1">' + A1 + b'<c r="B1"><f>'); fill(o, n, b"1"); o.write(b"</f><v>1</v></c></row>")
workbook("formula.xlsx", lambda o: None, formula)
def wide(o):
    o.write(b'<row r="1">')
    for _ in range(min(n, 480 << 20) // (60 << 10)):
        o.write(b'<c t="inlineStr"><is><t>'); fill(o, 60 << 10, b"w"); o.write(b"</t></is></c>")
    o.write(b"</row>")
workbook("wide-row.xlsx", lambda o: None, wide)
def many(out):
    for i in range(3_000_000):
        out.write(b"<si><t>person%d@example.org</t></si>" % i)
workbook("three-million-strings.xlsx", many,
         lambda o: o.write(b'<row r="1"><c r="A1" t="s"><v>2999999</v></c></row>'))
with open(os.path.join(work, "giant-cell.csv"), "wb") as out:
    out.write(b"Email,"); fill(out, min(n, 190 << 20)); out.write(b"\nann@example.org,x\n")
PY
ls -l "$WORK"/*.xlsx "$WORK"/*.csv | awk '{printf "  %-32s %10d bytes\n", $9, $5}' | sed "s|$WORK/||"

"$BIN/api" migrate >/dev/null
"$BIN/api" clients create --short bench --name "Bench" >/dev/null
COMPASS_USER_PASSWORD="Bench-passw0rd" "$BIN/api" users create --email bench@compass.test --admin >/dev/null
"$BIN/worker" >"$WORK/worker.log" 2>&1 &
WORKER_PID=$!
"$BIN/api" serve >"$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID $WORKER_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

BASE="http://127.0.0.1:$PORT"
json() { python3 -c "import sys,json; print(json.load(sys.stdin)$1)"; }
TOKEN=$(bench_token "$BASE" 1)
H=(-H "Authorization: Bearer $TOKEN" -H "client-short: bench" -H "client-id: 1")

# Each import: its path, then its form fields besides the file.
IMPORTS=(
  "/api/crm-list/upload?name=Hostile&createNewContacts=1|"
  "/api/contacts/ngp-import|"
  "/api/imports/contacts|mapping={\"Email\":\"email\"}"
  "/api/contributions/import|platform=actblue"
  "/api/contributions/import|platform=mapped;mapping={\"Id\":\"line_item_id\",\"Date\":\"date\",\"Amount\":\"amount\"}"
  "/api/media/import|platform=meta"
  "/api/media/import|platform=other;mapping={\"Day\":\"day\",\"Campaign\":\"campaign\",\"Ad\":\"ad\",\"Spend\":\"spend\"}"
  "/api/external-mailings/import|"
)

printf '\n%-28s %-6s %-14s %s\n' file jobs "worker peak" "errors (distinct)"
overall=0
for f in shared-string.xlsx inline-string.xlsx number.xlsx formula.xlsx wide-row.xlsx three-million-strings.xlsx giant-cell.csv; do
  echo 5 >"/proc/$WORKER_PID/clear_refs"   # resets the worker's peak RSS to its current RSS
  ids=()
  for spec in "${IMPORTS[@]}"; do
    path=${spec%%|*}; fields=${spec#*|}
    args=(-F "file=@$WORK/$f")
    IFS=';' read -ra kv <<<"$fields"
    for pair in "${kv[@]}"; do [ -n "$pair" ] && args+=(-F "$pair"); done
    id=$(curl -s "${H[@]}" "${args[@]}" "$BASE$path" | python3 -c 'import sys,json; print(json.load(sys.stdin).get("id",""))' 2>/dev/null || true)
    [ -n "$id" ] && ids+=("$id")
  done
  for id in "${ids[@]}"; do
    until [ "$(curl -sf "${H[@]}" "$BASE/api/jobs/$id" | json '["completed"]')" = True ]; do sleep 0.2; done
  done
  errors=$(for id in "${ids[@]}"; do curl -sf "${H[@]}" "$BASE/api/jobs/$id" | json '.get("error") or "(succeeded)"'; done | sort | uniq -c | sed 's/^ *//' | paste -sd';' -)
  peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$WORKER_PID/status")
  [ "$peak_kb" -gt "$overall" ] && overall=$peak_kb
  printf '%-28s %-6s %-14s %s\n' "$f" "${#ids[@]}" "$((peak_kb / 1024)) MB" "$errors"
done
printf '\nworker peak RSS over the corpus: %d MB (target < 256)\n' "$((overall / 1024))"
printf 'load: %s\n' "$(uptime)"
