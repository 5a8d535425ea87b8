# Shared by the fault scripts (sourced). They restart Postgres or Redis, so they never use the machine's shared
# instances: each starts a PRIVATE Postgres and a PRIVATE Redis from the installed binaries on free ports under
# .data/faults/<script>/, runs the real api, worker and SMTP sink (target/debug) against them, and removes them at
# exit.
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$ROOT"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
now() { date +%s.%N; }
since() { python3 -c "print(round($(now) - $1, 1))"; }

FAILED=0
check() { # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then printf '  ok    %-60s %s\n' "$1" "$3"
  else printf '  FAIL  %-60s expected %s, got %s\n' "$1" "$2" "$3"; FAILED=$((FAILED + 1)); fi
}
check_true() { # check_true NAME CONDITION-TEXT: passes when the python expression is true
  if python3 -c "import sys; sys.exit(0 if ($2) else 1)"; then printf '  ok    %-60s %s\n' "$1" "$2"
  else printf '  FAIL  %-60s %s is false\n' "$1" "$2"; FAILED=$((FAILED + 1)); fi
}

PIDS=()
cleanup() {
  kill "${PIDS[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  [ -n "${FPG_DIR:-}" ] && (cd / && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$FPG_DIR" -m immediate stop >/dev/null 2>&1) || true
  [ -n "${FPG_OWN_DIR:-}" ] && rm -rf "$FPG_OWN_DIR"
  [ -n "${FREDIS_PORT:-}" ] && redis-cli -p "$FREDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
}
trap cleanup EXIT

# --- private Postgres -------------------------------------------------------------------------------------
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -x "$PG_BIN/initdb" ] || die "the fault scripts need PostgreSQL's server binaries (apt-get install postgresql)"
PG_AS=()
start_private_postgres() { # start_private_postgres DIR: sets FPG_DIR, FPG_PORT
  FPG_DIR=$1; FPG_PORT=$(free_port)
  rm -rf "$FPG_DIR"; mkdir -p "$FPG_DIR"
  # initdb refuses to run as root: the cluster belongs to the postgres system user then, in a directory of its
  # own under /tmp, because the checkout may sit where that user cannot go (a clone in a private temp directory).
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home /tmp postgres
    PG_AS=(runuser -u postgres --)
    FPG_DIR=$(mktemp -d /tmp/compass-faults-pg.XXXXXX)
    FPG_OWN_DIR=$FPG_DIR
    chown postgres "$FPG_DIR"
  fi
  (cd / && "${PG_AS[@]}" "$PG_BIN/initdb" -D "$FPG_DIR" -U postgres --auth=trust >/dev/null)
  pg_start
}
pg_start() {
  (cd / && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$FPG_DIR" -l "$FPG_DIR/server.log" -w \
    -o "-h 127.0.0.1 -p $FPG_PORT -k /tmp -c fsync=off -c max_connections=200" start >/dev/null)
}
# Fast shutdown: open connections are cut, as in an upgrade or a failover.
pg_stop() { (cd / && "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$FPG_DIR" -m fast -w stop >/dev/null); }
fpsql() { psql -qtAX -h 127.0.0.1 -p "$FPG_PORT" -U postgres "$@"; }

# --- private Redis ----------------------------------------------------------------------------------------
start_private_redis() { # start_private_redis DIR [redis-server options…]: sets FREDIS_PORT, FREDIS_DIR
  FREDIS_DIR=$1; shift; FREDIS_PORT=$(free_port); FREDIS_OPTS=("$@")
  rm -rf "$FREDIS_DIR"; mkdir -p "$FREDIS_DIR"
  redis_start
}
redis_start() {
  redis-server --daemonize yes --bind 127.0.0.1 --port "$FREDIS_PORT" --dir "$FREDIS_DIR" \
    --logfile "$FREDIS_DIR/redis.log" "${FREDIS_OPTS[@]}"
  for _ in $(seq 50); do redis_answers "$FREDIS_PORT" && return; sleep 0.1; done
  die "private Redis did not start; see $FREDIS_DIR/redis.log"
}

# --- the product --------------------------------------------------------------------------------------------
BIN="$TARGET"
# start_product LOGDIR: api, worker and SMTP sink (mail kept in LOGDIR/mail) against the private instances; sets
# BASE, SINK_PORT, WORKER_PID, API_PID, CLIENT_ID and H (curl arguments carrying the client token and headers).
start_product() {
  local log=$1
  mkdir -p "$log/mail"
  export DATABASE_URL="postgres://postgres@127.0.0.1:$FPG_PORT/compass" REDIS_URL="redis://127.0.0.1:$FREDIS_PORT"
  export JOB_QUEUE="compass-faults" WEB_DIST="$log/no-web" SCHEDULE_SECONDS=1 RUST_LOG=${RUST_LOG:-warn}
  export JWT_SECRET="faults-secret-faults-secret-faults-secret" TRACKING_SECRET="faults-tracking-faults-tracking-faults"
  export FORM_SUBMITS_PER_MINUTE=0 FORM_VIEWS_PER_MINUTE=0
  SINK_PORT=$(free_port); export SMTP_URL="smtp://127.0.0.1:$SINK_PORT"
  export PORT; PORT=$(free_port); BASE="http://127.0.0.1:$PORT"; export PUBLIC_URL=$BASE
  createdb -h 127.0.0.1 -p "$FPG_PORT" -U postgres compass
  "$BIN/api" migrate >/dev/null
  "$BIN/api" clients create --short faults --name "Faults" >/dev/null
  local password="Faults-passw0rd-$$"
  COMPASS_USER_PASSWORD="$password" "$BIN/api" users create --email admin@faults.test --first A --last B --admin >/dev/null
  CLIENT_ID=$(fpsql compass -c "select id from clients where short_name = 'faults'")
  "$BIN/smtp-sink" "$SINK_PORT" "$log/mail" >"$log/sink.log" 2>&1 & PIDS+=($!)
  start_worker "$log"
  "$BIN/api" serve >>"$log/api.log" 2>&1 & API_PID=$!; PIDS+=($API_PID)
  for _ in $(seq 300); do curl -sf "$BASE/healthz" >/dev/null && break; sleep 0.2; done
  local basic token
  basic=$(curl -sf "$BASE/auth-api/auth/login" -H 'content-type: application/json' \
    -d "{\"username\":\"admin@faults.test\",\"password\":\"$password\"}" | json_field accessToken)
  token=$(curl -sf "$BASE/auth-api/session/client-login" -H 'content-type: application/json' \
    -H "authorization: Bearer $basic" -d "{\"clientId\":$CLIENT_ID}" | json_field accessToken)
  H=(-H "authorization: Bearer $token" -H "client-short: faults" -H "client-id: $CLIENT_ID")
}
start_worker() { "$BIN/worker" >>"$1/worker.log" 2>&1 & WORKER_PID=$!; PIDS+=($WORKER_PID); }

# make_csv FILE ROWS: a contact file (Email, First, Last) with ROWS distinct addresses.
make_csv() {
  python3 - "$1" "$2" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("Email,First,Last\n")
    for i in range(int(sys.argv[2])):
        f.write(f"import{i}@example.org,Ana{i},Lopez\n")
PY
}
# upload FILE NAME: uploads FILE into a new list through the api; prints the job id.
upload() { curl -sf "${H[@]}" -F "file=@$1" "$BASE/api/crm-list/upload?name=$2&createNewContacts=1" | json_field id; }
job_field() { curl -sf "${H[@]}" "$BASE/api/jobs/$1" | json_field "$2"; }
