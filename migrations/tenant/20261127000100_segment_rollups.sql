-- Per-contact giving and engagement for segment rules (issue 14). A rule such as "gave in the last year, total
-- given ≥ 100, opened in the last 90 days" used to aggregate every gift and scan every e-mail event of the client
-- once per condition; at 3,000,000 gifts and 10,000,000 events that took tens of seconds. The all-time facts a
-- rule asks about are kept here per contact instead, by statement-level triggers, so a rule reads one narrow row
-- per donor. Windowed conditions (totals within a window, gifts between two dates) still read the gifts.

-- One row per contact that has (or had) a contributions row. The counted gifts are the README's: positive, not
-- refunded, naming the contact (the rule of lybunt_contacts). A row whose gifts are all gone keeps gifts = 0.
create table contact_giving (
    contact_id bigint primary key,
    gifts integer not null default 0,
    total numeric(20, 2) not null default 0,
    first_gift_at timestamptz,
    last_gift_at timestamptz,
    -- Highest previous contribution and most recent contribution (latest counted gift by time, then id).
    hpc numeric(20, 2),
    mrc numeric(20, 2),
    -- Latest counted gift of a recurring series: an active sustainer gave one in the last 35 days.
    last_recurring_at timestamptz,
    -- Where the contact lives: the latest gift row (refunded or not) with a non-empty value.
    state text,
    zip text
);

-- Recounts the given contacts from the facts. Rows are created and locked first, in id order, so two writers of
-- the same contact take turns and the second reads what the first committed.
create function contact_giving_refresh(p_ids bigint[]) returns void
language plpgsql set search_path from current as $$
begin
    insert into contact_giving (contact_id)
    select distinct i from unnest(p_ids) i where i is not null order by 1 on conflict do nothing;
    perform 1 from contact_giving g where g.contact_id = any(p_ids) order by g.contact_id for update;
    update contact_giving cg
    set gifts = coalesce(a.gifts, 0), total = coalesce(a.total, 0), first_gift_at = a.first_gift_at,
        last_gift_at = a.last_gift_at, hpc = a.hpc, mrc = a.mrc, last_recurring_at = a.last_recurring_at,
        state = a.state, zip = a.zip
    from (select i.contact_id, x.*
          from (select distinct i as contact_id from unnest(p_ids) i where i is not null) i
          left join lateral (select * from contact_giving_of(i.contact_id)) x on true) a
    where cg.contact_id = a.contact_id;
end
$$;

-- One contact's row from its gifts (the contributions_counted_contact_idx and contributions_contact_idx indexes).
create function contact_giving_of(p_contact bigint)
returns table (gifts integer, total numeric, first_gift_at timestamptz, last_gift_at timestamptz, hpc numeric,
               mrc numeric, last_recurring_at timestamptz, state text, zip text)
language sql stable set search_path from current as $$
    select count(*)::integer, coalesce(sum(g.amount), 0), min(g.paid_at), max(g.paid_at), max(g.amount),
           (select m.amount from contributions m
            where m.contact_id = p_contact and m.amount > 0 and m.refunded_at is null
            order by m.paid_at desc, m.id desc limit 1),
           max(g.paid_at) filter (where g.recurring_months is not null),
           (select s.state from contributions s
            where s.contact_id = p_contact and s.state is not null and s.state <> ''
            order by s.paid_at desc, s.id desc limit 1),
           (select z.zip from contributions z
            where z.contact_id = p_contact and z.zip is not null and z.zip <> ''
            order by z.paid_at desc, z.id desc limit 1)
    from contributions g
    where g.contact_id = p_contact and g.amount > 0 and g.refunded_at is null
$$;

-- Every contact at once, set-based: the migration's backfill and large imports.
create function contact_giving_rebuild() returns void
language plpgsql set search_path from current as $$
begin
    lock table contact_giving in exclusive mode;
    delete from contact_giving;
    insert into contact_giving (contact_id, gifts, total, first_gift_at, last_gift_at, hpc, mrc,
                                last_recurring_at, state, zip)
    select a.contact_id, a.gifts, a.total, a.first_gift_at, a.last_gift_at, a.hpc, m.amount, a.last_recurring_at,
           s.v, z.v
    from (select g.contact_id,
                 count(*) filter (where g.amount > 0 and g.refunded_at is null)::integer as gifts,
                 coalesce(sum(g.amount) filter (where g.amount > 0 and g.refunded_at is null), 0) as total,
                 min(g.paid_at) filter (where g.amount > 0 and g.refunded_at is null) as first_gift_at,
                 max(g.paid_at) filter (where g.amount > 0 and g.refunded_at is null) as last_gift_at,
                 max(g.amount) filter (where g.amount > 0 and g.refunded_at is null) as hpc,
                 max(g.paid_at) filter (where g.amount > 0 and g.refunded_at is null
                                          and g.recurring_months is not null) as last_recurring_at
          from contributions g where g.contact_id is not null group by g.contact_id) a
    left join (select distinct on (g.contact_id) g.contact_id, g.amount from contributions g
               where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
               order by g.contact_id, g.paid_at desc, g.id desc) m on m.contact_id = a.contact_id
    left join (select distinct on (g.contact_id) g.contact_id, g.state as v from contributions g
               where g.contact_id is not null and g.state is not null and g.state <> ''
               order by g.contact_id, g.paid_at desc, g.id desc) s on s.contact_id = a.contact_id
    left join (select distinct on (g.contact_id) g.contact_id, g.zip as v from contributions g
               where g.contact_id is not null and g.zip is not null and g.zip <> ''
               order by g.contact_id, g.paid_at desc, g.id desc) z on z.contact_id = a.contact_id;
end
$$;

-- A statement touching many contacts recounts all of them in one pass; a few are recounted one by one.
create function contact_giving_touch(p_ids bigint[]) returns void
language plpgsql set search_path from current as $$
begin
    if p_ids is null then
        return;
    elsif cardinality(p_ids) > 20000 then
        perform contact_giving_rebuild();
    else
        perform contact_giving_refresh(p_ids);
    end if;
end
$$;

create function contact_giving_inserted() returns trigger
language plpgsql set search_path from current as $$
begin
    perform contact_giving_touch(
        (select array_agg(distinct n.contact_id) from new_rows n where n.contact_id is not null));
    return null;
end
$$;

-- Only rows whose contact, amount, refund, time, series or address moved are recounted.
create function contact_giving_updated() returns trigger
language plpgsql set search_path from current as $$
begin
    perform contact_giving_touch(
        (select array_agg(distinct x.contact_id)
         from old_rows o join new_rows n on n.id = o.id
         cross join lateral (values (o.contact_id), (n.contact_id)) x (contact_id)
         where x.contact_id is not null
           and (o.contact_id, o.amount, o.refunded_at, o.paid_at, o.recurring_months, o.state, o.zip)
               is distinct from (n.contact_id, n.amount, n.refunded_at, n.paid_at, n.recurring_months, n.state,
                                 n.zip)));
    return null;
end
$$;

create function contact_giving_deleted() returns trigger
language plpgsql set search_path from current as $$
begin
    perform contact_giving_touch(
        (select array_agg(distinct o.contact_id) from old_rows o where o.contact_id is not null));
    return null;
end
$$;

create trigger contact_giving_inserted after insert on contributions
    referencing new table as new_rows for each statement execute function contact_giving_inserted();
create trigger contact_giving_updated after update on contributions
    referencing old table as old_rows new table as new_rows
    for each statement execute function contact_giving_updated();
create trigger contact_giving_deleted after delete on contributions
    referencing old table as old_rows for each statement execute function contact_giving_deleted();

select contact_giving_rebuild();

-- Engagement: each contact's latest human open and click, beside the e-mail list state of the same contact.
alter table email_contact_state
    add column last_open_at timestamptz,
    add column last_click_at timestamptz;

-- New events only move them forward; the recount (events updated or deleted) recounts them from the facts.
create function email_engagement_events_insert() returns trigger
language plpgsql set search_path from current as $$
begin
    insert into email_contact_state as s (contact_id, last_open_at, last_click_at)
    select n.contact_id, max(n.created) filter (where n.kind = 'open'), max(n.created) filter (where n.kind = 'click')
    from new_rows n where n.kind in ('open', 'click') and not n.machine
    group by n.contact_id order by n.contact_id
    on conflict (contact_id) do update
        set last_open_at = greatest(s.last_open_at, excluded.last_open_at),
            last_click_at = greatest(s.last_click_at, excluded.last_click_at)
        where excluded.last_open_at > coalesce(s.last_open_at, '-infinity')
           or excluded.last_click_at > coalesce(s.last_click_at, '-infinity');
    return null;
end
$$;
create trigger email_engagement_events_insert after insert on mailing_events
    referencing new table as new_rows for each statement execute function email_engagement_events_insert();

create function email_engagement_events_changed() returns trigger
language plpgsql set search_path from current as $$
begin
    update email_contact_state s
    set last_open_at = (select max(e.created) from mailing_events e
                        where e.contact_id = s.contact_id and e.kind = 'open' and not e.machine),
        last_click_at = (select max(e.created) from mailing_events e
                         where e.contact_id = s.contact_id and e.kind = 'click' and not e.machine)
    where s.contact_id in (select o.contact_id from old_rows o);
    return null;
end
$$;
create trigger email_engagement_events_update after update on mailing_events
    referencing old table as old_rows for each statement execute function email_engagement_events_changed();
create trigger email_engagement_events_delete after delete on mailing_events
    referencing old table as old_rows for each statement execute function email_engagement_events_changed();

insert into email_contact_state as s (contact_id, last_open_at, last_click_at)
select e.contact_id, max(e.created) filter (where e.kind = 'open'), max(e.created) filter (where e.kind = 'click')
from mailing_events e where e.kind in ('open', 'click') and not e.machine
group by e.contact_id
on conflict (contact_id) do update set last_open_at = excluded.last_open_at, last_click_at = excluded.last_click_at;


-- LYBUNT and SYBUNT, same definitions; each year boundary is computed once per call (scalar subqueries), not for
-- every gift the filter looks at (a stable SQL function in a filter runs per row).
create or replace function lybunt_contacts(p_today date) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at >= (select client_day_start((fiscal_year_start(p_today) - interval '1 year')::date))
      and g.paid_at < (select client_day_start(fiscal_year_start(p_today)))
    except
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at >= (select client_day_start(fiscal_year_start(p_today)))
$$;

create or replace function sybunt_contacts(p_today date) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at < (select client_day_start(fiscal_year_start(p_today)))
    except
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at >= (select client_day_start(fiscal_year_start(p_today)))
$$;
