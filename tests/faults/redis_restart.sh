#!/usr/bin/env bash
# Fault: Redis restarted while jobs are queued and the worker is busy, with nothing kept on disk (the worst case:
# every queue message is lost; with the compose file's AOF only the last second would be). Checks that nothing is
# lost: the busy import and every queued job finish once, the import's rows are all there exactly once, and the
# api and worker reconnect by themselves (a job queued after the restart runs too).
#
#   tests/faults/redis_restart.sh [ROWS]     (default 50,000; private Postgres and Redis, see lib.sh)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ROWS=${1:-50000}
JOBS=${JOBS:-10}
WORK="$DATA/faults/redis"; rm -rf "$WORK"; mkdir -p "$WORK"
build_binaries

start_private_postgres "$WORK/pg"
start_private_redis "$WORK/redis" --save "" --appendonly no
# One job at a time, so the recounts wait in the queue behind the import.
export WORKER_CONCURRENCY=1
start_product "$WORK"
make_csv "$WORK/contacts.csv" "$ROWS"

say "an import of $ROWS rows running, $JOBS jobs queued behind it"
IMPORT=$(upload "$WORK/contacts.csv" redis-fault)
for _ in $(seq "$JOBS"); do curl -sf -X POST "${H[@]}" "$BASE/api/crm-list/recount" >/dev/null; done
for _ in $(seq 600); do [ "$(job_field "$IMPORT" status)" = running ] && break; sleep 0.1; done
check "import running when Redis goes down" running "$(job_field "$IMPORT" status)"
queued_before=$(fpsql compass -c "select count(*) from client_faults.jobs where status = 'queued'")
messages_before=$(redis-cli -p "$FREDIS_PORT" dbsize)

say "Redis restarted without persistence"
redis-cli -p "$FREDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
sleep 2
redis_start
restarted=$(now)
check "keys in Redis after the restart" 0 "$(redis-cli -p "$FREDIS_PORT" dbsize)"

say "a job queued through the api after the restart"
after=""
for _ in $(seq 50); do
  after=$(curl -s -X POST "${H[@]}" "$BASE/api/crm-list/recount" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("id", ""))' 2>/dev/null || true)
  [ -n "$after" ] && break; sleep 0.2
done
check_true "api queues again after the restart (job id)" "'$after' != ''"

# A push the api tried while Redis was away answered 503 and left its row queued: reconcile queues those too.
for _ in $(seq 900); do
  [ "$(fpsql compass -c "select count(*) from client_faults.jobs where status <> 'done'")" = 0 ] && break
  sleep 0.2
done
took=$(since "$restarted")
TOTAL=$(fpsql compass -c "select count(*) from client_faults.jobs")
check_true "every job queued is there (import + $JOBS + 1 at least)" "$TOTAL >= $JOBS + 2"
check "jobs done" "$TOTAL" "$(fpsql compass -c "select count(*) from client_faults.jobs where status = 'done'")"
check "jobs succeeded" "$TOTAL" "$(fpsql compass -c "select count(*) from client_faults.jobs where success")"
check "contacts imported (exactly once)" "$ROWS" "$(fpsql compass -c "select count(*) from client_faults.contacts")"
check "members of the uploaded list" "$ROWS" "$(fpsql compass -c "select count(*) from client_faults.crm_list_members m
  join client_faults.crm_lists l on l.id = m.list_id where l.name = 'redis-fault'")"
check "lists named redis-fault (no half-made duplicate)" 1 \
  "$(fpsql compass -c "select count(*) from client_faults.crm_lists where name = 'redis-fault'")"
attempts=$(fpsql compass -c "select string_agg(attempts::text, ',' order by id) from client_faults.jobs")

echo
echo "redis restart: $ROWS rows imported, $TOTAL jobs done ($queued_before queued and $messages_before Redis keys" \
  "before the restart, 0 after), all done ${took} s after Redis came back; attempts per job: $attempts; $FAILED failed"
[ "$FAILED" = 0 ]
