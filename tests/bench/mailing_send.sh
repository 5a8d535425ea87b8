#!/usr/bin/env bash
# Benchmark: a mailing to N recipients (default 100,000) delivered by the real worker (release build) to a local
# SMTP sink, against a floor measured in the same run: the same number of pre-rendered messages pushed through
# one lettre pool of the same size to a sink of the same kind (worker/examples/mail_floor.rs). Prints
# messages/s and the ratio. Then the open pixel is loaded with a fixed number of requests and the stored opens
# are checked against what was sent.
#
#   tests/bench/mailing_send.sh [RECIPIENTS] [--kill]
#
# --kill: kills the worker (SIGKILL) in the middle of the send and starts another; the sink's count must still
# equal RECIPIENTS exactly (every recipient receives exactly one message).
# DKIM=rsa or DKIM=ed25519 adds the From domain as a sender domain through the api (its key generated and sealed
# as for a client) before the send, so every message is signed; tests/bench/dkim_send.sh pairs a signed and an
# unsigned send. OPENS=0 leaves out the open-pixel part.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
source "$(dirname "$0")/lib/session.sh"
cd "$ROOT"

RECIPIENTS=${1:-100000}
KILL=${2:-}
POOL=${SMTP_POOL_SIZE:-8}
WORK="$DATA/bench"; mkdir -p "$WORK"
ensure_postgres
ensure_redis
fresh_database compass_mail_bench
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export DATABASE_URL=$(pg_url compass_mail_bench) REDIS_URL=$(redis_url) JOB_QUEUE="compass-mail-bench-$$"
export JWT_SECRET="bench-secret-bench-secret-bench-secret" TRACKING_SECRET="bench-tracking-secret-bench-tracking-secret" RUST_LOG=${RUST_LOG:-warn}
export WEB_DIST="$WORK/none" SCHEDULE_SECONDS=1 SMTP_POOL_SIZE=$POOL FORM_VIEWS_PER_MINUTE=0
export PORT=$(free_port)
export SEND_JOURNAL_DIR="$WORK/journal"; rm -rf "$SEND_JOURNAL_DIR"
export PUBLIC_URL="http://127.0.0.1:$PORT"
DKIM=${DKIM:-}
[ -z "$DKIM" ] || export DKIM_KEY_SECRET=$(openssl rand -hex 32)
PSQL=(psql -qtA -h 127.0.0.1 -p "$PG_PORT" -U postgres compass_mail_bench)
calc() { python3 -c "print($1)"; }

say "building release binaries"
cargo build -q --release --bin api --bin worker --bin smtp-sink --example mail_floor -p worker -p api -p mail
cargo build -q --release -p api --example form_load
BIN="$ROOT/target/release"
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null || true' EXIT

# Starts a counting sink on a free port; sets SINK_PORT and SINK_LOG.
start_sink() {
  SINK_PORT=$(free_port); SINK_LOG="$WORK/sink-$1.log"
  "$BIN/smtp-sink" "$SINK_PORT" - >"$SINK_LOG" 2>&1 &
  PIDS+=($!)
  sleep 0.3
}
delivered() { sed -n 's/^delivered //p' "$1" | tail -n1; }

# The floor is measured before and after the real send, each time against a fresh sink, and the faster of the
# two is the one compared with: this machine's speed drifts from minute to minute.
# Sets FLOOR to the seconds it took.
measure_floor() {
  say "floor: $RECIPIENTS pre-rendered messages through one pool of $POOL"
  start_sink "floor-$1"
  "$BIN/examples/mail_floor" "smtp://127.0.0.1:$SINK_PORT" "$RECIPIENTS" "$POOL" | tee "$WORK/floor-$1.txt"
  FLOOR=$(sed -n 's/^FLOOR_SECONDS=//p' "$WORK/floor-$1.txt")
}
measure_floor before; floor_before=$FLOOR

start_sink real
export SMTP_URL="smtp://127.0.0.1:$SINK_PORT"
"$BIN/api" migrate >/dev/null
"$BIN/api" clients create --short bench --name "Bench" >/dev/null
"${PSQL[@]}" >/dev/null <<SQL
set search_path = client_bench;
insert into contacts (email, first_name) select 'person' || i || '@example.org', 'Maria' from generate_series(1, $RECIPIENTS) i;
insert into crm_lists (name, kind) values ('Everyone', 'upload');
insert into crm_list_members (list_id, contact_id) select 1, id from contacts;
insert into senders (name, from_address) values ('Friends of the Campaign', 'team@campaign.example.org');
-- The floor sends over POOL connections; the real send gets as many. By default the "other" providers' group
-- (example.org is one) has 4, a courtesy to receiving servers, which would measure the setting, not the send.
update mailbox_provider_pacing set connections = $POOL where provider = 'other';
SQL
# The send's own timings (recipients chosen, send finished, journal hand-over) go to the worker's log;
# WORKER_LOG_LEVEL=warn,worker::send=debug adds each batch's wait and send times.
WORKER_LOG_LEVEL=${WORKER_LOG_LEVEL:-warn,worker::send=info,worker::schedule=info}
RUST_LOG=$WORKER_LOG_LEVEL "$BIN/worker" >"$WORK/mail-worker.log" 2>&1 &
WORKER_PID=$!; PIDS+=($WORKER_PID)
"$BIN/api" serve >"$WORK/mail-api.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

if [ -n "$DKIM" ]; then
  say "signing: campaign.example.org added as a sender domain ($DKIM key) through the api"
  COMPASS_USER_PASSWORD="Bench-passw0rd" "$BIN/api" users create --email bench@compass.test --first Bench --last User --admin >/dev/null
  BASE="http://127.0.0.1:$PORT"
  CLIENT_ID=$("${PSQL[@]}" -c "select id from clients where short_name = 'bench'")
  TOKEN=$(bench_token "$BASE" "$CLIENT_ID")
  curl -sf -o /dev/null "$BASE/api/sender-domains" -H "authorization: Bearer $TOKEN" -H "client-short: bench" \
    -H "client-id: $CLIENT_ID" -H 'content-type: application/json' \
    -d "{\"domain\":\"campaign.example.org\",\"algorithm\":\"$DKIM\"}"
fi

say "real: confirmed mailing, sent by the worker ($POOL SMTP connections)"
start=$(date +%s.%N)
"${PSQL[@]}" -c "set search_path = client_bench;
  insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft)
  values ('Bench', 'What your support made possible', 1, now(), 1,
          '<h1>This month on the campaign</h1><p>Hi {{First.Name}},</p><p>Here is what your support made possible.</p><p><a href=\"https://example.org\">Chip in</a></p>', false)" >/dev/null
killed=
polls=0
# The sink's running count is read from its log; the database is asked (a psql process each time, which costs
# CPU the send would use) only once nearly everything arrived, or once a second.
while :; do
  at=$(delivered "$SINK_LOG"); at=${at:-0}
  polls=$((polls + 1))
  if [ "$at" -ge $((RECIPIENTS * 9 / 10)) ] || [ $((polls % 20)) -eq 0 ]; then
    state=$("${PSQL[@]}" -c "select delivery from client_bench.mailings where id = 1")
    [ "$state" = done ] && break
  fi
  if [ -n "$KILL" ] && [ -z "$killed" ] && [ "$at" -gt $((RECIPIENTS / 3)) ]; then
    kill -9 "$WORKER_PID"; killed=1
    echo "worker killed at $at messages; starting another"
    RUST_LOG=$WORKER_LOG_LEVEL "$BIN/worker" >>"$WORK/mail-worker.log" 2>&1 &
    WORKER_PID=$!; PIDS+=($WORKER_PID)
  fi
  sleep 0.05
done
real=$(calc "$(date +%s.%N) - $start")
sleep 1
at_sink=$(delivered "$SINK_LOG")
sent_rows=$("${PSQL[@]}" -c "select count(*) from client_bench.mailing_recipients where status = 'sent'")
measure_floor after; floor_after=$FLOOR
floor=$(calc "min($floor_before, $floor_after)")
printf '\nfloor before    %.2f s, after %.2f s\n' "$floor_before" "$floor_after"

printf '\nrecipients      %d\n' "$RECIPIENTS"
printf 'floor           %.2f s  (%.0f messages/s)\n' "$floor" "$(calc "$RECIPIENTS / $floor")"
printf 'real            %.2f s  (%.0f messages/s, scheduler pick-up included)\n' "$real" "$(calc "$RECIPIENTS / $real")"
printf 'ratio           %.2f  (target <= 1.5; >= 1000 messages/s)%s\n' "$(calc "$real / $floor")" \
  "$([ -n "$KILL" ] && echo '; with --kill the hand-over wait is included, so only the count below matters')"
printf 'at the sink     %s messages, %s recipients marked sent  %s\n' "$at_sink" "$sent_rows" \
  "$([ "$at_sink" = "$RECIPIENTS" ] && [ "$sent_rows" = "$RECIPIENTS" ] && echo EXACT || echo MISMATCH)"
if [ -n "$DKIM" ]; then
  # The api's tests verify the signatures (api/tests/api/deliverability); here only the cost is measured.
  printf 'signed          %s key on %s sender domain(s) of the From address\n' "$DKIM" \
    "$("${PSQL[@]}" -c "select count(*) from client_bench.sender_domains where domain = 'campaign.example.org' and dkim_private_key is not null")"
fi
printf 'load average    %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
[ "${OPENS:-100000}" != 0 ] || exit 0

# The open pixel under load: one signed token per request would need the signer; the same recipient's pixel
# N times shows the path's throughput, and the stored event count must equal N.
OPENS=${OPENS:-100000}
TOKEN_URL=$(python3 - "$TRACKING_SECRET" "$PORT" <<'PY'
import base64, hashlib, hmac, sys
secret, port = sys.argv[1].encode(), sys.argv[2]
payload = base64.urlsafe_b64encode(b"1:1:1").rstrip(b"=").decode()
mac = hmac.new(secret, payload.encode() + b"\n" + b"open", hashlib.sha256).digest()[:16]
print(f"http://127.0.0.1:{port}/api/track/open/{payload}." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode())
PY
)
say "open pixel: $OPENS requests"
"$BIN/examples/form_load" get "$TOKEN_URL" "$OPENS" 32 - | tee "$WORK/opens.txt"
sleep 1.5
opens_ok=$(sed -n 's/^OK_COUNT=//p' "$WORK/opens.txt")
stored=$("${PSQL[@]}" -c "select count(*) from client_bench.mailing_events where kind = 'open'")
printf 'opens           %s sent, %s answered, %s stored  %s\n' "$OPENS" "$opens_ok" "$stored" \
  "$([ "$stored" = "$opens_ok" ] && [ "$opens_ok" = "$OPENS" ] && echo EXACT || echo MISMATCH)"
