#!/usr/bin/env bash
# Fault: Postgres stopped (fast shutdown: every connection cut) for DOWN seconds while an import runs, a mailing is
# being sent and public forms are being submitted, then started again. Checks that
#   - the api answers 503 (not 500) while the database is away, and answers again by itself afterwards;
#   - the import is retried whole: every row imported exactly once, one list;
#   - the send resumes without mailing anyone twice: each recipient exactly once at the SMTP sink;
#   - every form submission answered 200 is stored (and none answered 500).
#
#   tests/faults/postgres_restart.sh [ROWS] [RECIPIENTS]   (defaults 50,000 and 3,000; private Postgres and Redis)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ROWS=${1:-50000}
RECIPIENTS=${2:-3000}
DOWN=${DOWN:-15}
WORK="$DATA/faults/postgres"; rm -rf "$WORK"; mkdir -p "$WORK"
build_binaries

start_private_postgres "$WORK/pg"
start_private_redis "$WORK/redis" --save "" --appendonly yes --appendfsync everysec
# A paced send, so that it is still going when the database goes away.
export MAIL_RATE_PER_SECOND=${MAIL_RATE_PER_SECOND:-200}
start_product "$WORK"
make_csv "$WORK/contacts.csv" "$ROWS"
fpsql compass >/dev/null <<SQL
set search_path = client_faults;
insert into contacts (email, first_name) select 'reader' || i || '@example.org', 'Maria' from generate_series(1, $RECIPIENTS) i;
insert into crm_lists (name, kind) values ('Readers', 'upload');
insert into crm_list_members (list_id, contact_id) select (select id from crm_lists where name = 'Readers'), id from contacts;
insert into senders (name, from_address) values ('Friends', 'team@campaign.example.org');
insert into origin_codes (name) values ('faults-web');
insert into forms (name, origin_code_id, enabled) values ('Sign up', (select id from origin_codes limit 1), true);
SQL
FORM=$(fpsql compass -c "select id from client_faults.forms limit 1")

say "form traffic (4 senders), an import of $ROWS rows, a send to $RECIPIENTS recipients"
python3 - "$BASE" "$FORM" "$WORK/forms.txt" "$WORK/forms.stop" <<'PY' &
import json, os, sys, threading, urllib.request, urllib.error
base, form, out, stop = sys.argv[1:5]
lock = threading.Lock()
results = open(out, "w")
def sender(n):
    i = 0
    while not os.path.exists(stop):
        i += 1
        email = f"form{n}-{i}@example.org"
        req = urllib.request.Request(f"{base}/api/crm-form/{form}/submit", data=json.dumps({"email": email}).encode(),
                                     headers={"content-type": "application/json", "client-short": "faults"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                code = r.status
        except urllib.error.HTTPError as e:
            code = e.code
        except Exception:
            code = 0
        with lock:
            results.write(f"{code} {email}\n"); results.flush()
threads = [threading.Thread(target=sender, args=(n,)) for n in range(4)]
for t in threads: t.start()
for t in threads: t.join()
PY
FORMS_PID=$!; PIDS+=($FORMS_PID)

IMPORT=$(upload "$WORK/contacts.csv" pg-fault)
for _ in $(seq 600); do [ "$(job_field "$IMPORT" status)" = running ] && break; sleep 0.1; done
fpsql compass -c "insert into client_faults.mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft)
  values ('During the outage', 'Hello', (select id from client_faults.senders limit 1), now(),
          (select id from client_faults.crm_lists where name = 'Readers'), '<p>Hi {{First.Name}}</p>', false)" >/dev/null
for _ in $(seq 300); do [ "$(ls "$WORK/mail" | wc -l)" -gt 50 ] && break; sleep 0.1; done
import_state=$(job_field "$IMPORT" status)
mailed_before=$(ls "$WORK/mail" | wc -l)

say "Postgres stopped for $DOWN s (import $import_state, $mailed_before messages sent so far)"
pg_stop
stopped=$(now)
jobs_down=$(curl -s -o /dev/null -w '%{http_code}' "${H[@]}" "$BASE/api/jobs")
health_down=$(curl -s -o /dev/null -w '%{http_code}' "$BASE/healthz")
sleep "$(python3 -c "print(max(0, $DOWN - ($(now) - $stopped)))")"
pg_start
started=$(now)
recovered=""
for _ in $(seq 300); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "${H[@]}" "$BASE/api/jobs")" = 200 ] && { recovered=$(since "$started"); break; }
  sleep 0.1
done
for _ in $(seq 1800); do
  [ "$(fpsql compass -c "select count(*) from client_faults.jobs where status <> 'done'")" = 0 ] \
    && [ "$(fpsql compass -c "select delivery from client_faults.mailings where name = 'During the outage'")" = done ] && break
  sleep 0.2
done
sleep 2; touch "$WORK/forms.stop"; wait "$FORMS_PID" 2>/dev/null || true
sleep 1

to_sink() { grep -h -i '^To:' "$WORK"/mail/*.eml | tr 'A-Z' 'a-z' | grep -o 'reader[0-9]*@example.org'; }
messages=$(to_sink | wc -l); distinct=$(to_sink | sort -u | wc -l)
answered_200=$(grep -c '^200 ' "$WORK/forms.txt" || true)
answered_503=$(grep -c '^503 ' "$WORK/forms.txt" || true)
answered_500=$(grep -c '^500 ' "$WORK/forms.txt" || true)
grep '^200 ' "$WORK/forms.txt" | cut -d' ' -f2 | sort -u >"$WORK/forms-200.txt"
fpsql compass -c "select email from client_faults.external_signups" | sort -u >"$WORK/forms-stored.txt"
lost=$(comm -23 "$WORK/forms-200.txt" "$WORK/forms-stored.txt" | wc -l)

echo
check "an /api call while Postgres is down" 503 "$jobs_down"
# Not checked: /healthz reports Postgres and Redis (503 while one is down) until /readyz takes that role.
echo "  info  /healthz while Postgres was down answered $health_down"
check_true "api answers 200 again by itself (s after Postgres is back)" "'$recovered' != '' and $recovered < 30"
check "import" "done true" "$(fpsql compass -c "select status || ' ' || success from client_faults.jobs where id = $IMPORT")"
check "contacts from the import (exactly once)" "$ROWS" \
  "$(fpsql compass -c "select count(*) from client_faults.contacts where email like 'import%'")"
check "members of the imported list" "$ROWS" "$(fpsql compass -c "select count(*) from client_faults.crm_list_members m
  join client_faults.crm_lists l on l.id = m.list_id where l.name = 'pg-fault'")"
check "lists named pg-fault" 1 "$(fpsql compass -c "select count(*) from client_faults.crm_lists where name = 'pg-fault'")"
check "mailing delivery" done "$(fpsql compass -c "select delivery from client_faults.mailings where name = 'During the outage'")"
check "messages at the sink" "$RECIPIENTS" "$messages"
check "distinct recipients at the sink" "$RECIPIENTS" "$distinct"
check "form submissions answered 500" 0 "$answered_500"
check_true "form submissions answered 503 while down" "$answered_503 > 0"
check "form submissions answered 200 but not stored" 0 "$lost"

echo
echo "postgres restart: down ${DOWN} s; import of $ROWS rows (attempts $(fpsql compass -c "select attempts from client_faults.jobs where id = $IMPORT")," \
  "$import_state at the stop); send to $RECIPIENTS ($mailed_before before the stop, $messages messages, $distinct distinct);" \
  "forms $answered_200 answered 200 (all stored: $((answered_200 > 0 && lost == 0))), $answered_503 answered 503, $answered_500 answered 500;" \
  "api answered again ${recovered:-never} s after Postgres; $FAILED failed"
[ "$FAILED" = 0 ]
