-- The LYBUNT and SYBUNT rule as a window of last-gift times, so a caller can read `contact_giving` through its
-- `last_gift_at` index itself. `lybunt_contacts` and `sybunt_contacts` are not inlined by the planner (their
-- `set search_path` keeps them on this tenant's tables), so a count over them first materialized every lapsed
-- donor: the SYBUNT report's count took 290 ms at 1,000,000 contacts, 20 ms by the index (issue 27 item 17).
-- The window is the rule, written once: a donor is lapsed when their last counted gift is at or after `lo` and
-- before `hi`. SYBUNT has no lower bound (`-infinity`).
create function lapsed_window(p_kind text, p_today date, out lo timestamptz, out hi timestamptz)
language sql stable set search_path from current as $$
    select case p_kind
               when 'lybunt' then client_day_start((fiscal_year_start(p_today) - interval '1 year')::date)
               when 'sybunt' then '-infinity'::timestamptz
           end,
           case when p_kind in ('lybunt', 'sybunt') then client_day_start(fiscal_year_start(p_today)) end
$$;

create or replace function lybunt_contacts(p_today date) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select g.contact_id from contact_giving g
    where g.last_gift_at >= (select w.lo from lapsed_window('lybunt', p_today) w)
      and g.last_gift_at < (select w.hi from lapsed_window('lybunt', p_today) w)
$$;

create or replace function sybunt_contacts(p_today date) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select g.contact_id from contact_giving g
    where g.last_gift_at >= (select w.lo from lapsed_window('sybunt', p_today) w)
      and g.last_gift_at < (select w.hi from lapsed_window('sybunt', p_today) w)
$$;
