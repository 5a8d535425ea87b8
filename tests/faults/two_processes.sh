#!/usr/bin/env bash
# Two api processes and two workers on one Postgres and one Redis (issue 18, "Many processes"). Starts the real
# binaries (target/debug) on distinct ports with a counting SMTP sink, and checks what a user of either api sees:
#   - jobs queued through both apis each run once (done, attempts = 1);
#   - a mailing that both workers' schedulers see due reaches each recipient exactly once (the sink's messages);
#   - sign-in limits hold across the apis (failures on A and B add up to one counter in Redis);
#   - a token issued by A works on B; a user disabled through A is refused by B at once;
#   - a client disabled in the registry (there is no operation for it yet: an operator does it in SQL) is refused
#     by both apis within the registry cache's lifetime (REGISTRY_CACHE_SECONDS, default 5 s when a cache exists;
#     today there is none, so at once);
#   - form-submission limits hold across the apis (the counter must live in Redis: N allowed in total, not N each);
#   - the workers keep spare client schemas ready, and `api clients create` renames one into a working client.
# Prints the counts it checked; exits non-zero on the first failure. Uses database compass_two_processes.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

ensure_postgres
ensure_redis
DB=compass_two_processes
fresh_database "$DB"
build_binaries

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
PSQL=(psql -qtAX -h "$PG_HOST" -p "$PG_PORT" -U postgres "$DB")
LOG="$DATA/two-processes"; rm -rf "$LOG"; mkdir -p "$LOG/mail"
RECIPIENTS=${RECIPIENTS:-200}
JOBS=${JOBS:-10}
PER_PAIR=4      # failed sign-ins per account and address before 429
FORM_LIMIT=6    # form submissions per address per minute

export DATABASE_URL=$(pg_url "$DB") REDIS_URL=$(redis_url) JOB_QUEUE="compass-two-$$"
export JWT_SECRET="two-processes-secret-two-processes-secret"
export TRACKING_SECRET="two-processes-tracking-two-processes-tracking"
export WEB_DIST="$LOG/no-web" SCHEDULE_SECONDS=1 RUST_LOG=${RUST_LOG:-warn}
export AUTH_ATTEMPTS_PER_ACCOUNT=$PER_PAIR FORM_SUBMITS_PER_MINUTE=$FORM_LIMIT FORM_VIEWS_PER_MINUTE=0
SMTP_PORT=$(free_port); export SMTP_URL="smtp://127.0.0.1:$SMTP_PORT"
PORT_A=$(free_port); PORT_B=$(free_port)
A="http://127.0.0.1:$PORT_A"; B="http://127.0.0.1:$PORT_B"
export PUBLIC_URL=$A
BIN="$TARGET"

"$BIN/api" migrate >/dev/null
"$BIN/api" clients create --short two --name "Two Processes" >/dev/null
PASSWORD="Two-passw0rd-$$"
COMPASS_USER_PASSWORD="$PASSWORD" "$BIN/api" users create --email admin@two.test --first Ada --last Admin --admin >/dev/null
for who in staff guessed; do
  COMPASS_USER_PASSWORD="$PASSWORD" "$BIN/api" users create --email "$who@two.test" --first Sam --last Staff --admin >/dev/null
done
CLIENT_ID=$("${PSQL[@]}" -c "select id from clients where short_name = 'two'")

PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null || true' EXIT
"$BIN/smtp-sink" "$SMTP_PORT" "$LOG/mail" >"$LOG/sink.log" 2>&1 & PIDS+=($!)
WORKER_NAME=w1 "$BIN/worker" >"$LOG/worker-1.log" 2>&1 & PIDS+=($!)
WORKER_NAME=w2 "$BIN/worker" >"$LOG/worker-2.log" 2>&1 & PIDS+=($!)
PORT=$PORT_A "$BIN/api" serve >"$LOG/api-a.log" 2>&1 & PIDS+=($!)
PORT=$PORT_B "$BIN/api" serve >"$LOG/api-b.log" 2>&1 & PIDS+=($!)
for base in "$A" "$B"; do
  for _ in $(seq 300); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.2; done
  curl -sf "$base/healthz" >/dev/null || die "api at $base did not start (see $LOG)"
done

FAILED=0
check() { # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then printf '  ok    %-58s %s\n' "$1" "$3"
  else printf '  FAIL  %-58s expected %s, got %s\n' "$1" "$2" "$3"; FAILED=$((FAILED + 1)); fi
}
# status BASE PATH [curl args…]: the HTTP status only.
status() { local base=$1 path=$2; shift 2; curl -s -o /dev/null -w '%{http_code}' "$base$path" "$@"; }
sign_in() { # sign_in BASE EMAIL → client token
  local basic
  basic=$(curl -sf "$1/auth-api/auth/login" -H 'content-type: application/json' \
    -d "{\"username\":\"$2\",\"password\":\"$PASSWORD\"}" | json_field accessToken)
  curl -sf "$1/auth-api/session/client-login" -H 'content-type: application/json' \
    -H "authorization: Bearer $basic" -d "{\"clientId\":$CLIENT_ID}" | json_field accessToken
}
# as_client TOKEN CURL-ARGS…: a curl call with the client token and the headers naming the client.
as_client() { local t=$1; shift; curl "$@" -H "authorization: Bearer $t" -H "client-short: two" -H "client-id: $CLIENT_ID"; }
jobs_status() { as_client "$2" -s -o /dev/null -w '%{http_code}' "$1/api/jobs"; }

say "tokens: issued by one api, used on the other"
TOKEN_A=$(sign_in "$A" admin@two.test)
TOKEN_B=$(sign_in "$B" admin@two.test)
check "token from A on B (GET /api/jobs)" 200 "$(jobs_status "$B" "$TOKEN_A")"
check "token from B on A (GET /api/jobs)" 200 "$(jobs_status "$A" "$TOKEN_B")"

say "jobs: $JOBS queued through both apis, two workers"
for i in $(seq "$JOBS"); do
  base=$A; [ $((i % 2)) = 0 ] && base=$B
  as_client "$TOKEN_A" -sf -X POST "$base/api/crm-list/recount" >/dev/null
done
for _ in $(seq 150); do
  [ "$("${PSQL[@]}" -c "select count(*) from client_two.jobs where status = 'done' and command = 'recount-lists'")" = "$JOBS" ] && break
  sleep 0.2
done
# Only this run's jobs: the workers queue their own (the portfolio's refresh of each client) beside them.
check "jobs done" "$JOBS" "$("${PSQL[@]}" -c "select count(*) from client_two.jobs where status = 'done' and success and command = 'recount-lists'")"
check "jobs run more than once (attempts > 1)" 0 "$("${PSQL[@]}" -c "select count(*) from client_two.jobs where attempts <> 1")"

say "a mailing due while both schedulers look: $RECIPIENTS recipients"
"${PSQL[@]}" >/dev/null <<SQL
set search_path = client_two;
insert into contacts (email, first_name) select 'person' || i || '@example.org', 'Maria' from generate_series(1, $RECIPIENTS) i;
insert into crm_lists (name, kind) values ('Everyone', 'upload');
insert into crm_list_members (list_id, contact_id) select (select id from crm_lists where name = 'Everyone'), id from contacts;
insert into senders (name, from_address) values ('Friends', 'team@campaign.example.org');
insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft)
values ('Both see it', 'Hello', (select id from senders limit 1), now() + interval '2 seconds',
        (select id from crm_lists where name = 'Everyone'), '<p>Hi {{First.Name}}</p>', false);
SQL
for _ in $(seq 300); do
  [ "$("${PSQL[@]}" -c "select delivery from client_two.mailings where name = 'Both see it'")" = done ] && break
  sleep 0.2
done
sleep 1 # the sink writes a message after answering the worker
recipients=$(grep -h -i '^To:' "$LOG"/mail/*.eml 2>/dev/null | tr 'A-Z' 'a-z' | grep -c 'person' || true)
distinct=$(grep -h -i '^To:' "$LOG"/mail/*.eml 2>/dev/null | tr 'A-Z' 'a-z' | grep 'person' | sort -u | wc -l)
check "mailing delivery" done "$("${PSQL[@]}" -c "select delivery from client_two.mailings where name = 'Both see it'")"
check "messages at the sink" "$RECIPIENTS" "$recipients"
check "distinct recipients at the sink" "$RECIPIENTS" "$distinct"
check "send jobs queued for the mailing" 1 \
  "$("${PSQL[@]}" -c "select count(*) from client_two.jobs where command = 'send-mailing'")"

say "sign-in limits across the apis ($PER_PAIR failures per account and address)"
codes=()
for i in $(seq $((PER_PAIR + 1))); do
  base=$A; [ $((i % 2)) = 0 ] && base=$B
  codes+=("$(status "$base" /auth-api/auth/login -H 'content-type: application/json' \
    -d '{"username":"guessed@two.test","password":"wrong-password"}')")
done
check "failed sign-ins answered 401 (alternating A, B)" "$PER_PAIR" "$(printf '%s\n' "${codes[@]:0:$PER_PAIR}" | grep -c 401)"
check "next attempt on either api" 429 "${codes[$PER_PAIR]}"
check "right password on A after the limit" 429 "$(status "$A" /auth-api/auth/login -H 'content-type: application/json' \
  -d "{\"username\":\"guessed@two.test\",\"password\":\"$PASSWORD\"}")"

say "form submissions across the apis ($FORM_LIMIT per address per minute)"
CODE=$(as_client "$TOKEN_A" -sf "$A/api/external-origin-code/get-or-create-crm" -H 'content-type: application/json' \
  -d '{"name":"two-web"}' | json_field id)
FORM=$(as_client "$TOKEN_A" -sf "$A/api/crm-form" -H 'content-type: application/json' \
  -d "{\"name\":\"Sign up\",\"externalOriginCodeId\":$CODE,\"enabled\":true}" | json_field id)
accepted=0; limited=0
for i in $(seq $((FORM_LIMIT * 2))); do
  base=$A; [ $((i % 2)) = 0 ] && base=$B
  code=$(status "$base" "/api/crm-form/$FORM/submit" -H 'content-type: application/json' -H 'client-short: two' \
    -d "{\"email\":\"signup$i@example.org\"}")
  case $code in 200) accepted=$((accepted + 1));; 429) limited=$((limited + 1));; esac
done
check "submissions accepted of $((FORM_LIMIT * 2)) (alternating A, B)" "$FORM_LIMIT" "$accepted"
check "submissions refused 429" "$FORM_LIMIT" "$limited"
check "signups stored = accepted" "$accepted" "$("${PSQL[@]}" -c "select count(*) from client_two.external_signups")"

say "a user disabled through A is refused by B"
STAFF_TOKEN=$(sign_in "$A" staff@two.test)
STAFF_ID=$("${PSQL[@]}" -c "select id from universal_users where email = 'staff@two.test'")
check "staff token from A on B before" 200 "$(jobs_status "$B" "$STAFF_TOKEN")"
ADMIN_BASIC=$(curl -sf "$A/auth-api/auth/login" -H 'content-type: application/json' \
  -d "{\"username\":\"admin@two.test\",\"password\":\"$PASSWORD\"}" | json_field accessToken)
check "disable staff through A" 200 "$(status "$A" "/auth-api/session/universal-users/$STAFF_ID" -X PATCH \
  -H 'content-type: application/json' -H "authorization: Bearer $ADMIN_BASIC" -d '{"enabled":false}')"
check "staff token on B right after" 401 "$(jobs_status "$B" "$STAFF_TOKEN")"

say "a client disabled in the registry is refused by both apis within the cache's lifetime"
LIFETIME=${REGISTRY_CACHE_SECONDS:-5}
check "client token on B before" 200 "$(jobs_status "$B" "$TOKEN_A")"
"${PSQL[@]}" -c "update clients set enabled = false where id = $CLIENT_ID" >/dev/null
disabled_at=$(date +%s.%N)
refused_a=; refused_b=
while :; do
    [ -z "$refused_a" ] && [ "$(jobs_status "$A" "$TOKEN_A")" = 403 ] \
    && refused_a=$(python3 -c "print(round($(date +%s.%N) - $disabled_at, 2))")
    [ -z "$refused_b" ] && [ "$(jobs_status "$B" "$TOKEN_B")" = 403 ] \
    && refused_b=$(python3 -c "print(round($(date +%s.%N) - $disabled_at, 2))")
  { [ -n "$refused_a" ] && [ -n "$refused_b" ]; } && break
  python3 -c "import sys; sys.exit(0 if $(date +%s.%N) - $disabled_at > $LIFETIME + 2 else 1)" && break
  sleep 0.1
done
check "A refuses the disabled client within ${LIFETIME} s" yes "$([ -n "$refused_a" ] && python3 -c "print('yes' if $refused_a <= $LIFETIME + 1 else 'no')" || echo never)"
check "B refuses the disabled client within ${LIFETIME} s" yes "$([ -n "$refused_b" ] && python3 -c "print('yes' if $refused_b <= $LIFETIME + 1 else 'no')" || echo never)"
echo "  (refused after ${refused_a:-never} s on A, ${refused_b:-never} s on B)"

say "spare client schemas kept ready by the two workers (SPARE_SCHEMAS 2), one taken by a new client"
for _ in $(seq 100); do [ "$("${PSQL[@]}" -c "select count(*) from spare_schemas")" -ge 2 ] && break; sleep 0.2; done
sleep 1 # a second top-up, had the lock not kept it out, would have added its spares by now
spares=$("${PSQL[@]}" -c "select count(*) from spare_schemas")
check "spares ready (two workers, one top-up at a time)" 2 "$spares"
oldest=$("${PSQL[@]}" -c "select schema_name from spare_schemas order by created, schema_name limit 1")
"$BIN/api" clients create --short spared --name "From a spare" >/dev/null
check "the oldest spare is gone (renamed)" 0 "$("${PSQL[@]}" -c "select count(*) from pg_namespace where nspname = '$oldest'")"
check "the new client's settings row" 1 "$("${PSQL[@]}" -c "select count(*) from client_spared.app_settings")"
check "its functions find its tables (client_day)" t \
  "$("${PSQL[@]}" -c "set search_path = client_spared; select client_day(now()) is not null" | tail -n1)"

echo
echo "two processes: $JOBS jobs, $RECIPIENTS recipients ($recipients messages), $((PER_PAIR + 2)) sign-ins," \
  "$((FORM_LIMIT * 2)) form submissions ($accepted accepted), 2 disable checks, $spares spares; $FAILED failed"
[ "$FAILED" = 0 ]
