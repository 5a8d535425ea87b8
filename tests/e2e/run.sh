#!/usr/bin/env bash
# Starts the real api, worker and local SMTP sink on a fresh database and a free port, creates two clients and a user,
# runs the Playwright specs in Debian's Chromium, and stops everything. Arguments go to `playwright test` (a spec
# file, --grep …). One run at a time per database: it recreates E2E_DATABASE (default compass_e2e).
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"

if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM_PATH:-}" ]; then
  say "installing Chromium (Debian package)"
  apt_install chromium || die "Chromium is missing: apt-get install chromium (or set CHROMIUM_PATH)"
fi

ensure_postgres
ensure_redis
E2E_DATABASE=${E2E_DATABASE:-compass_e2e}
fresh_database "$E2E_DATABASE"
# scripts/test builds the web beside the Rust build and sets COMPASS_WEB_BUILT.
if [ -z "${COMPASS_WEB_BUILT:-}" ]; then
  web_install
  (cd web && npm run -s build >/dev/null)
fi
build_binaries

export DATABASE_URL=$(pg_url "$E2E_DATABASE")
export REDIS_URL=$(redis_url)
export JOB_QUEUE="compass-e2e-$$"
export JWT_SECRET="e2e-secret-e2e-secret-e2e-secret-e2e"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
export PORT=$(free_port)
# The local SMTP sink keeps every message the api and worker send as an .eml file for the delivery spec.
SMTP_PORT=$(free_port)
export SMTP_URL="smtp://127.0.0.1:$SMTP_PORT"
export E2E_MAIL_DIR="$DATA/e2e/mail"
export WEB_DIST="$ROOT/web/dist"
# The worker needs the link-signing key (the api's too: both must agree) and the public address, and never JWT_SECRET.
export TRACKING_SECRET="e2e-tracking-secret-e2e-tracking-secret"
# The worker signs VERP bounce addresses with it; the bounce listener checks them.
export BOUNCE_SECRET="e2e-bounce-secret-e2e-bounce-secret"
export BOUNCE_LISTEN="127.0.0.1:$(free_port)"
export PUBLIC_URL="http://127.0.0.1:$PORT"
# Sender domains: the DKIM key secret both must share, and a resolver on a port nobody answers, so the domain
# check never asks the outside world (its records then show as "No answer").
export DKIM_KEY_SECRET="0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e"
export DNS_RESOLVER="127.0.0.1:$(free_port)"
export PROVIDER_NAME="Compass Test Agency"
# Many sign-ins come from one address during the suite; the limits themselves are covered by the api tests.
export AUTH_ATTEMPTS_PER_ADDRESS=100000 AUTH_ATTEMPTS_PER_ACCOUNT=1000 AUTH_ACCOUNT_FAILURES_BEFORE_DELAY=0
export REGISTRATIONS_PER_ADDRESS_PER_HOUR=0 REGISTRATIONS_PER_EMAIL_PER_HOUR=0
# Development mode: phone codes go to the log gateway, which writes them to the api log the specs read.
export DEV_LOG_CODES=1 E2E_API_LOG="$DATA/e2e/api.log" RUST_LOG="${RUST_LOG:-info}"
# The journeys spec moves the clock journeys read (POST /api/system/test-clock): api and worker both honour it.
export COMPASS_TEST_CLOCK=1
API="$TARGET/api"

"$API" migrate >/dev/null
"$API" clients create --short e2e --name "E2E Campaign" >/dev/null
"$API" clients create --short e2eother --name "Other Committee" >/dev/null
COMPASS_USER_PASSWORD="E2e-passw0rd" "$API" users create --email e2e@compass.test --first Erin --last Tester --admin >/dev/null

LOG="$DATA/e2e"; mkdir -p "$LOG"
rm -rf "$E2E_MAIL_DIR"; mkdir -p "$E2E_MAIL_DIR"
"$TARGET/smtp-sink" "$SMTP_PORT" "$E2E_MAIL_DIR" >"$LOG/smtp-sink.log" 2>&1 &
SINK_PID=$!
env -u JWT_SECRET "$TARGET/worker" >"$LOG/worker.log" 2>&1 &
WORKER_PID=$!
env -u JWT_SECRET -u TRACKING_SECRET "$TARGET/bounce-listener" >"$LOG/bounce-listener.log" 2>&1 &
BOUNCE_PID=$!
"$API" serve >"$LOG/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID $WORKER_PID $SINK_PID $BOUNCE_PID 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$SMTP_PORT") 2>/dev/null && break; sleep 0.1; done

cd tests/e2e
stamp=node_modules/.compass-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
E2E_BASE_URL="http://127.0.0.1:$PORT" E2E_EMAIL=e2e@compass.test E2E_PASSWORD=E2e-passw0rd \
  npx playwright test "$@"
