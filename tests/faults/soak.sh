#!/usr/bin/env bash
# Soak (issue 28): an api and two workers run for MINUTES under a mixed load while faults are injected on a timer.
#
# Load, for the whole run: a "Recount lists" job every second, a 1,000-row list upload every 8 s, a mailing to
# 100 contacts every 12 s (the scheduler picks it up), a segment update and a report file every 10 s, and public
# form traffic (views and submissions, about ten requests a second).
# Faults, at fixed points of the run (fractions of MINUTES):
#   10 %  worker 1 frozen (SIGSTOP) for 30 s, then thawed;
#   30 %  worker 2 killed (SIGKILL) and started again, as its supervisor would;
#   45 %  Redis paused (CLIENT PAUSE ALL) for 20 s;
#   60 %  Redis restarted without persistence (every queue message lost);
#   75 %  every Postgres backend of the product terminated (pg_terminate_backend).
# Then the load stops and the run drains (at most 120 s). It fails when a job is lost (an id the api answered
# that does not end done and successful), a job's work happened twice (a list with other than 1,000 members, a
# recipient mailed twice by one mailing, a form submission stored twice), a job waited more than 30 s past the
# end of the last fault it overlapped, or a process's peak RSS passed 256 MB. It prints jobs queued, finished,
# failed, the longest wait, the processes' peak RSS and the load average.
#
#   tests/faults/soak.sh [MINUTES]      (default 3; private Postgres and Redis, see lib.sh; CPU_HOGS busy loops, default 0)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
MINUTES=${1:-3}
CPU_HOGS=${CPU_HOGS:-0}
WORK="$DATA/faults/soak"; rm -rf "$WORK"; mkdir -p "$WORK"
build_binaries

start_private_postgres "$WORK/pg"
start_private_redis "$WORK/redis" --save "" --appendonly no
export WORKER_NAME=soak1
# One sign-in serves the whole run: a token that expired mid-run would turn the job load into 401s.
export TOKEN_TTL_MINUTES=$((MINUTES + 10))
start_product "$WORK"
W1=$WORKER_PID
WORKER_NAME=soak2 start_worker "$WORK"
W2=$WORKER_PID

for _ in $(seq "$CPU_HOGS"); do (while :; do :; done) & PIDS+=($!); done

# --- fixtures: 2,000 contacts, a list of 100 for the mailings, a sender, a segment, a form --------------------
fpsql compass -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
set search_path = client_faults;
insert into contacts (email, first_name) select 'soak' || i || '@example.org', 'Maria' from generate_series(1, 2000) i;
insert into crm_lists (name, kind) values ('Mail soakers', 'upload');
insert into crm_list_members (list_id, contact_id)
  select l.id, c.id from crm_lists l, contacts c where l.name = 'Mail soakers' order by c.id limit 100;
insert into senders (name, from_address) values ('Soak', 'team@soak.example.org');
SQL
MAIL_LIST=$(fpsql compass -c "select id from client_faults.crm_lists where name = 'Mail soakers'")
SEGMENT=$(curl -sf "${H[@]}" "$BASE/api/segments" -H 'content-type: application/json' \
  -d "{\"name\":\"Soakers\",\"rule\":{\"op\":\"and\",\"conditions\":[{\"field\":\"list\",\"op\":\"in\",\"value\":[$MAIL_LIST]}]}}" \
  | json_field id)
CODE=$(curl -sf "${H[@]}" "$BASE/api/external-origin-code/get-or-create-crm" -H 'content-type: application/json' \
  -d '{"name":"soak-web"}' | json_field id)
FORM=$(curl -sf "${H[@]}" "$BASE/api/crm-form" -H 'content-type: application/json' \
  -d "{\"name\":\"Soak signup\",\"externalOriginCodeId\":$CODE,\"enabled\":true,\"bodyHtml\":\"<form><input type=\\\"email\\\" name=\\\"email\\\"></form>\"}" \
  | json_field id)
make_csv "$WORK/list.csv" 1000

FAULTS="$WORK/faults.txt"; : >"$FAULTS"          # one "start end name" line per fault (epoch seconds)
IDS="$WORK/job-ids.txt"; : >"$IDS"              # every job id the api answered
REFUSED="$WORK/refused.txt"; : >"$REFUSED"      # "kind epoch status" of each request the api did not accept
FORMS="$WORK/forms.txt"; : >"$FORMS"            # "status email" per form submission
RUN=$((MINUTES * 60)); T0=$(date +%s); END=$((T0 + RUN))
running() { [ "$(date +%s)" -lt "$END" ]; }
accepted_job() { # accepted_job KIND CURL-ARGS…: records the job id, or the refusal with its time and status
  local kind=$1 body; shift
  body=$(curl -s --max-time 30 -w '\n%{http_code}' "$@" || true)
  python3 -c 'import json,sys; print(json.loads(sys.argv[1].rsplit("\n", 1)[0])["id"])' "$body" >>"$IDS" 2>/dev/null \
    || echo "$kind $(date +%s) ${body##*$'\n'}" >>"$REFUSED"
}

say "soak: $MINUTES minute(s) of mixed load, faults at 10/30/45/60/75 % of the run"
( # jobs: recounts, uploads, segment updates, reports
  n=0
  while running; do
    n=$((n + 1))
    accepted_job recount -X POST "${H[@]}" "$BASE/api/crm-list/recount"
    if [ $((n % 8)) = 0 ]; then
      accepted_job upload "${H[@]}" -F "file=@$WORK/list.csv" "$BASE/api/crm-list/upload?name=soak-$n&createNewContacts=1"
    fi
    if [ $((n % 10)) = 5 ]; then
      accepted_job segment -X POST "${H[@]}" "$BASE/api/segments/$SEGMENT/compute"
      accepted_job report "${H[@]}" -H 'content-type: application/json' "$BASE/api/reports/monthly-summary/build" \
        -d '{"from":"2026-01-01","to":"2026-12-31","format":"csv"}'
    fi
    if [ $((n % 12)) = 0 ]; then # a mailing due now: the scheduler queues its send job
      fpsql compass -c "insert into client_faults.mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft)
        values ('Soak $n', 'Soak $n', (select id from client_faults.senders limit 1), now(), $MAIL_LIST,
                '<p>Hi {{First.Name}}</p>', false)" >/dev/null 2>&1 || echo "mailing $(date +%s) db" >>"$REFUSED"
    fi
    sleep 1
  done
) & LOAD=$!
( # public form traffic
  i=0
  while running; do
    i=$((i + 1))
    curl -s -o /dev/null --max-time 10 -X POST -H 'client-short: faults' "$BASE/api/crm-form/$FORM/view" || true
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 30 -H 'content-type: application/json' \
      -H 'client-short: faults' -d "{\"email\":\"form$i@example.org\"}" "$BASE/api/crm-form/$FORM/submit" || true)
    echo "$code form$i@example.org" >>"$FORMS"
    sleep 0.1
  done
) & FORM_LOAD=$!

at() { local t; t=$(python3 -c "print($T0 + round($RUN * $1))"); while [ "$(date +%s)" -lt "$t" ]; do sleep 0.2; done; }
fault() { echo "$1 $(date +%s) $2" >>"$FAULTS"; say "fault: $2"; }   # fault START NAME (the end is written as now)
peak_rss() { awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$1/status" 2>/dev/null || echo 0; }
W2_PEAK=0

at 0.10; s=$(date +%s); kill -STOP "$W1"; sleep 30; kill -CONT "$W1"; fault "$s" "worker 1 frozen for 30 s"
at 0.30; s=$(date +%s); W2_PEAK=$(peak_rss "$W2"); kill -KILL "$W2"; wait "$W2" 2>/dev/null || true
WORKER_NAME=soak2 start_worker "$WORK"; W2=$WORKER_PID; fault "$s" "worker 2 killed and started again"
at 0.45; s=$(date +%s); redis-cli -p "$FREDIS_PORT" client pause 20000 all >/dev/null; sleep 20
fault "$s" "Redis paused for 20 s"
at 0.60; s=$(date +%s); redis-cli -p "$FREDIS_PORT" shutdown nosave >/dev/null 2>&1 || true; sleep 2; redis_start
fault "$s" "Redis restarted without persistence"
at 0.75; s=$(date +%s)
killed=$(fpsql compass -c "select count(pg_terminate_backend(pid)) from pg_stat_activity
  where datname = 'compass' and pid <> pg_backend_pid()")
fault "$s" "$killed Postgres backends terminated"
wait "$LOAD" "$FORM_LOAD" 2>/dev/null || true

say "load stopped; draining"
for _ in $(seq 600); do
  [ "$(fpsql compass -c "select count(*) from client_faults.jobs where status <> 'done'")" = 0 ] && break
  sleep 0.2
done
sleep 2 # the sink writes a message after answering the worker; views are flushed twice a second

API_PEAK=$(peak_rss "$API_PID"); W1_PEAK=$(peak_rss "$W1"); W2_PEAK=$(( $(peak_rss "$W2") > W2_PEAK ? $(peak_rss "$W2") : W2_PEAK ))
fpsql compass -c "copy (select id, status, coalesce(success, false), attempts, command,
    extract(epoch from created), extract(epoch from updated) from client_faults.jobs order by id) to stdout" >"$WORK/jobs.tsv"
fpsql compass -c "copy (select l.name, count(m.contact_id) from client_faults.crm_lists l
    left join client_faults.crm_list_members m on m.list_id = l.id where l.name like 'soak-%' group by 1) to stdout" >"$WORK/lists.tsv"
fpsql compass -c "copy (select m.name, (select count(*) from client_faults.mailing_recipients r where r.mailing_id = m.id)
    from client_faults.mailings m where m.name like 'Soak %') to stdout" >"$WORK/mailings.tsv"
fpsql compass -c "copy (select c.email, count(*) from client_faults.external_signups s
    join client_faults.contacts c on c.id = s.contact_id group by 1) to stdout" >"$WORK/signups.tsv"

python3 - "$WORK" "$API_PEAK" "$W1_PEAK" "$W2_PEAK" "$MINUTES" <<'PY'
import collections, email, glob, os, sys
work, api_peak, w1_peak, w2_peak, minutes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
failed = []
def check(name, ok, detail):
    print(f"  {'ok  ' if ok else 'FAIL'}  {name:<62} {detail}")
    if not ok: failed.append(name)

faults = [tuple(l.split(" ", 2)) for l in open(f"{work}/faults.txt").read().splitlines()]
faults = [(float(s), float(e), n) for s, e, n in faults]
jobs = {}
for line in open(f"{work}/jobs.tsv"):
    i, status, success, attempts, command, created, updated = line.rstrip("\n").split("\t")
    jobs[int(i)] = (status, success == "t", int(attempts), command, float(created), float(updated))
answered = [int(l) for l in open(f"{work}/job-ids.txt").read().split()]
# A request whose database connection is terminated under it fails whole (503, nothing written): that is the
# answer it should get. Any other refusal, or one away from that fault, fails the soak.
refusals = [l.split() for l in open(f"{work}/refused.txt").read().splitlines()]
killed = [(s, e) for s, e, n in faults if "Postgres backends terminated" in n]
def excused(at, status):
    return status in ("503", "db") and any(s - 2 <= float(at) <= e + 5 for s, e in killed)
refused = collections.Counter(kind for kind, at, status in refusals if not excused(at, status))
excused_count = sum(1 for kind, at, status in refusals if excused(at, status))

lost = [i for i in answered if i not in jobs or jobs[i][0] != "done"]
check("every job the api accepted ended done", not lost, f"{len(answered)} accepted, not done: {lost[:10]}")
failed_jobs = [(i, j[3]) for i, j in jobs.items() if j[0] == "done" and not j[1]]
check("no job failed", not failed_jobs, f"{len(failed_jobs)} failed {failed_jobs[:5]}")

# A job's wait is queued-to-done; a fault it overlapped excuses the time until that fault ended.
def past_fault(created, updated):
    start = created
    for s, e, _ in faults:
        if s <= updated and e >= created:
            start = max(start, e)
    return updated - start
waits = [(past_fault(j[4], j[5]), j[5] - j[4], i, j[3]) for i, j in jobs.items() if j[0] == "done"]
worst = max(waits) if waits else (0, 0, 0, "")
longest = max((w[1] for w in waits), default=0)
check("no job waited more than 30 s past a fault", worst[0] <= 30,
      f"longest queued-to-done {longest:.1f} s; past a fault {worst[0]:.1f} s (job {worst[2]}, {worst[3]})")

lists = [l.rstrip("\n").split("\t") for l in open(f"{work}/lists.tsv")]
bad_lists = [(n, c) for n, c in lists if c != "1000"]
check("every uploaded list holds its 1,000 rows once", not bad_lists, f"{len(lists)} lists, other sizes: {bad_lists[:5]}")

sent = collections.Counter()
for path in glob.glob(f"{work}/mail/*.eml"):
    with open(path, "rb") as f:
        m = email.message_from_binary_file(f)
    sent[(str(m["Subject"]), str(m["To"]).lower())] += 1
twice = [k for k, n in sent.items() if n > 1]
check("no recipient mailed twice by one mailing", not twice, f"{sum(sent.values())} messages, twice: {twice[:3]}")
mailings = [l.rstrip("\n").split("\t") for l in open(f"{work}/mailings.tsv")]
short = [(n, c, len({to for (s, to) in sent if s == n})) for n, c in mailings
         if int(c) != 100 or len({to for (s, to) in sent if s == n}) != 100]
check("every mailing's 100 recipients each got one message", not short, f"{len(mailings)} mailings, short: {short[:3]}")

forms = [l.split() for l in open(f"{work}/forms.txt").read().splitlines()]
accepted = {e for code, e in forms if code == "200"}
stored = dict(l.rstrip("\n").split("\t") for l in open(f"{work}/signups.tsv"))
missing = [e for e in accepted if e not in stored]
doubled = [e for e, n in stored.items() if int(n) > 1]
check("every accepted form submission stored, once", not missing and not doubled,
      f"{len(forms)} sent, {len(accepted)} accepted, {len(stored)} stored; missing {missing[:3]}, twice {doubled[:3]}")
for name, peak in (("api", api_peak), ("worker 1", w1_peak), ("worker 2", w2_peak)):
    check(f"{name} peak RSS under 256 MB", peak < 256, f"{peak} MB")

with open("/proc/loadavg") as f:
    load = " ".join(f.read().split()[:3])
check("the api accepted every job request, faults included", not refused,
      f"refused: {dict(refused) or 0}; 503 while its connection was terminated: {excused_count}")
by_kind = collections.Counter(j[3] for j in jobs.values())
print(f"soak: {minutes} min, {len(jobs)} jobs queued ({', '.join(f'{k} {n}' for k, n in sorted(by_kind.items()))}), "
      f"{sum(1 for j in jobs.values() if j[0] == 'done')} finished, {len(failed_jobs)} failed; "
      f"longest wait {longest:.1f} s ({worst[0]:.1f} s past a fault); job requests refused: "
      f"{sum(refused.values())}; form submissions {len(accepted)}/{len(forms)} accepted; "
      f"peak RSS api {api_peak} MB, workers {w1_peak} / {w2_peak} MB; load average {load}")
for s, e, n in faults:
    print(f"  fault at +{s - faults[0][0]:.0f} s for {e - s:.0f} s: {n}")
if failed:
    print(f"soak: {len(failed)} check(s) failed"); sys.exit(1)
print("soak: all checks passed")
PY
