# Shared by scripts/run and scripts/test: find or start Postgres and Redis, check the toolchains.
# Sourced, not run. Uses what answers on 127.0.0.1; else starts private instances under .data/ from the
# installed binaries; else installs Debian's packages when running as root; else says what is missing.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA="$ROOT/.data"
mkdir -p "$DATA"
# The debug binaries (in CARGO_TARGET_DIR when that is set).
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}/debug"

# The api, worker and SMTP sink, unless the caller built them already: scripts/test builds them once and sets
# COMPASS_PREBUILT, so that a step running beside a cargo command does not queue behind its lock on the target.
build_binaries() { [ -n "${COMPASS_PREBUILT:-}" ] || cargo build -q --bin api --bin worker --bin smtp-sink --bin bounce-listener; }

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }
APT_UPDATED=
apt_install() {
  can_apt || return 1
  if [ -z "$APT_UPDATED" ]; then apt-get update -qq >/dev/null 2>&1 || true; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

need_toolchains() {
  command -v cargo >/dev/null || die "cargo is missing: install Rust 1.94 or newer (https://rustup.rs), then run this again."
  if ! command -v npm >/dev/null; then
    apt_install nodejs npm || die "node and npm are missing: install Node.js 20 or newer with npm, then run this again."
  fi
}

# --- Postgres -------------------------------------------------------------------------------------------
PG_HOST=127.0.0.1
PG_PORT=${PG_PORT:-5432}
pg_answers() { pg_isready -q -h "$PG_HOST" -p "$1" 2>/dev/null; }

ensure_postgres() {
  command -v pg_isready >/dev/null || apt_install postgresql-client || die "psql tools missing: apt-get install postgresql"
  if pg_answers "$PG_PORT"; then
    say "Postgres answers on $PG_HOST:$PG_PORT"
    return
  fi
  PG_PORT=55432
  if pg_answers "$PG_PORT"; then say "private Postgres already running on $PG_PORT"; return; fi
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    say "installing PostgreSQL (Debian package)"
    apt_install postgresql || die "PostgreSQL is not running on 127.0.0.1:5432 and not installed: apt-get install postgresql"
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
  fi
  local dir="$DATA/postgres" as=()
  # initdb refuses to run as root: run the private instance as the postgres system user.
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home "$dir" postgres
    as=(runuser -u postgres --)
    mkdir -p "$dir"; chown postgres "$dir"
  fi
  if [ ! -f "$dir/PG_VERSION" ]; then
    say "creating a private Postgres cluster in $dir"
    "${as[@]}" "$bin/initdb" -D "$dir" -U postgres --auth=trust >/dev/null
  fi
  say "starting private Postgres on $PG_HOST:$PG_PORT"
  "${as[@]}" "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
    -o "-h $PG_HOST -p $PG_PORT -k /tmp" start >/dev/null
}

pg_url() { echo "postgres://postgres@$PG_HOST:$PG_PORT/$1"; }

# Creates database $1 unless it exists.
ensure_database() {
  psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -tAc "select 1 from pg_database where datname = '$1'" postgres | grep -q 1 \
    || createdb -h "$PG_HOST" -p "$PG_PORT" -U postgres "$1"
}

# Drops and creates database $1, for tests that start clean.
fresh_database() {
  dropdb -h "$PG_HOST" -p "$PG_PORT" -U postgres --if-exists --force "$1"
  createdb -h "$PG_HOST" -p "$PG_PORT" -U postgres "$1"
}

# --- Redis ----------------------------------------------------------------------------------------------
REDIS_PORT=${REDIS_PORT:-6379}
redis_answers() { [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ]; }

ensure_redis() {
  command -v redis-server >/dev/null || { say "installing Redis (Debian package)"; apt_install redis-server redis-tools; } \
    || die "Redis is not running on 127.0.0.1:6379 and not installed: apt-get install redis-server"
  if redis_answers "$REDIS_PORT"; then say "Redis answers on 127.0.0.1:$REDIS_PORT"; return; fi
  REDIS_PORT=56379
  if redis_answers "$REDIS_PORT"; then say "private Redis already running on $REDIS_PORT"; return; fi
  mkdir -p "$DATA/redis"
  say "starting private Redis on 127.0.0.1:$REDIS_PORT"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$DATA/redis" \
    --logfile "$DATA/redis/redis.log" --save "" --appendonly no
  for _ in $(seq 50); do redis_answers "$REDIS_PORT" && return; sleep 0.1; done
  die "private Redis did not start; see $DATA/redis/redis.log"
}

redis_url() { echo "redis://127.0.0.1:$REDIS_PORT"; }

# --- Web ------------------------------------------------------------------------------------------------
# npm install only when package-lock.json changed since the last install.
web_install() {
  local stamp="$ROOT/web/node_modules/.compass-lock"
  if [ ! -f "$stamp" ] || ! cmp -s "$ROOT/web/package-lock.json" "$stamp"; then
    say "installing web packages"
    (cd "$ROOT/web" && npm install --no-audit --no-fund --loglevel=error)
    cp "$ROOT/web/package-lock.json" "$stamp"
  fi
}

# A secret kept across runs (in .data/<name>) so sessions and mailed links survive a restart of the run command.
kept_secret() {
  local f="$DATA/$1"
  [ -s "$f" ] || head -c 48 /dev/urandom | base64 | tr -d '\n/+=' > "$f"
  cat "$f"
}
jwt_secret() { kept_secret jwt_secret; }
