#!/usr/bin/env bash
# Benchmark: a mailing's audience (`mailing_audience`) on the large client of tests/bench/segments.sh (run that
# first: this script reuses its database, compass_bench_segments, and adds lists and a mailing to it). The mailing
# goes to a query list of one origin code (~50,000 contacts) minus an upload list; the client also has five query
# lists over every contact. Prints the time of the current function and of the definition it replaced (migration
# 20261127000200; the old text is kept here as the floor to beat), each best of three, and their ratio.
#   tests/bench/mailing_audience.sh
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"
DB=${BENCH_DB:-compass_bench_segments}
ensure_postgres
PSQL=(psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$DB")
"${PSQL[@]}" -tA -c "select 1 from client_bench.contacts limit 1" >/dev/null 2>&1 \
  || die "no bench client in $DB: run tests/bench/segments.sh first"
"${PSQL[@]}" <<'SQL'
set search_path = client_bench;
create or replace function mailing_audience_before(p_mailing_id bigint) returns table (contact_id bigint)
language sql stable as $$
    select c.id from contacts c
    where c.subscription = 'subscribed'
      and c.id in (
          select lc.contact_id from mailings m join crm_list_contacts lc on lc.list_id = m.list_id
          where m.id = p_mailing_id
          union
          select sm.contact_id from mailings m join segment_members sm on sm.segment_id = m.segment_id
          where m.id = p_mailing_id)
      and not exists (
          select 1 from mailing_suppressions s join crm_list_contacts lc on lc.list_id = s.list_id
          where s.mailing_id = p_mailing_id and lc.contact_id = c.id)
      and not exists (
          select 1 from mailing_suppressions s join segment_members sm on sm.segment_id = s.segment_id
          where s.mailing_id = p_mailing_id and sm.contact_id = c.id)
$$;
delete from mailings where name = 'Audience bench';
delete from crm_lists where name like 'Audience bench%';
insert into crm_lists (name, kind, origin_code_ids) values ('Audience bench one code', 'query', '{1}');
insert into crm_lists (name, kind, origin_code_ids)
select 'Audience bench all ' || g, 'query', (select array_agg(id) from origin_codes) from generate_series(1, 5) g;
insert into crm_lists (name, kind) values ('Audience bench suppress', 'upload');
insert into crm_list_members (list_id, contact_id)
select (select id from crm_lists where name = 'Audience bench suppress'), c.id from contacts c where c.id % 97 = 0;
insert into mailings (name, subject_line, list_id)
values ('Audience bench', 'S', (select id from crm_lists where name = 'Audience bench one code'));
insert into mailing_suppressions (mailing_id, list_id)
values ((select id from mailings where name = 'Audience bench'),
        (select id from crm_lists where name = 'Audience bench suppress'));
analyze crm_lists; analyze crm_list_members;
SQL
best() { # function → "seconds count", best of three
  local fn=$1 t0 n s b=999
  for _ in 1 2 3; do
    t0=$(date +%s.%N)
    n=$("${PSQL[@]}" -tA -c "set search_path = client_bench; set jit = off;
        select count(*) from $fn((select id from mailings where name = 'Audience bench'))" | tail -1)
    s=$(python3 -c "print($(date +%s.%N) - $t0)")
    b=$(python3 -c "print(min($b, $s))")
  done
  echo "$b $n"
}
read -r now n_now < <(best mailing_audience)
read -r before n_before < <(best mailing_audience_before)
[ "$n_now" = "$n_before" ] || die "the two definitions disagree: $n_now against $n_before contacts"
printf 'audience of %d contacts: mailing_audience %.3f s; the definition before %.3f s; ratio %.1f\n' \
  "$n_now" "$now" "$before" "$(python3 -c "print($before / $now)")"
