-- Journey triggers that no single write announces (issue 31): a recurring series that failed (no charge 35 days
-- after its last one, the active-sustainer rule of docs/metrics.md), a series that ended (its last installment
-- arrived), the anniversary of a first gift, and the anniversary of a contact's date field (signup date, last gift
-- date). The writers' trigger announces the end of a series; the rest come from one calendar scan per client day.

alter table journey_events drop constraint journey_events_kind_check;
alter table journey_events add constraint journey_events_kind_check check (kind in ('form_signup',
    'origin_code_signup', 'list_added', 'segment_entered', 'gift', 'recurring_started', 'recurring_failed',
    'recurring_ended', 'first_gift_anniversary', 'date_field'));
-- The date field a 'date_field' event is about (signup_date, last_gift_date).
alter table journey_events add column field text;

-- The last client day the calendar scan has emitted its events for.
create table journey_calendar (
    only_row boolean primary key default true check (only_row),
    day date not null
);

create or replace function journey_events_from_gifts() returns trigger
language plpgsql set search_path from current as $$
begin
    if exists (select 1 from journeys where status = 'active') then
        insert into journey_events (kind, contact_id, ref_id, amount_cents)
        select k.kind, n.contact_id, n.id, (n.amount * 100)::bigint
        from added n cross join (values ('gift'), ('recurring_started'), ('recurring_ended')) k (kind)
        where n.contact_id is not null and n.amount > 0
          and (k.kind = 'gift'
               or (k.kind = 'recurring_started' and n.recurring_months is not null
                   and coalesce(n.recurrence_number, 1) = 1)
               -- A series of a fixed number of months (0 or none is open-ended) ends with its last installment.
               or (k.kind = 'recurring_ended' and n.recurring_months > 0
                   and n.recurrence_number >= n.recurring_months));
    end if;
    return null;
end
$$;

-- Emits the calendar's events for the client days after the last scanned one up to the day of `p_now` (a worker
-- that was stopped catches up at most a week), only for the kinds some active journey starts on. Answers the
-- events emitted. The scanned day is locked first, so two workers never emit a day twice.
create function journey_calendar_events(p_now timestamptz) returns integer
language plpgsql set search_path from current as $$
declare
    tz text := coalesce((select time_zone from app_settings limit 1), 'America/New_York');
    today date := (p_now at time zone tz)::date;
    last_day date;
    kinds text[];
    fields text[];
    emitted integer;
begin
    insert into journey_calendar (day) values (today - 1) on conflict (only_row) do nothing;
    select day into last_day from journey_calendar for update;
    if last_day >= today then
        return 0;
    end if;
    update journey_calendar set day = today;
    select array_agg(distinct t->>'kind'), array_agg(distinct t->>'field') filter (where t->>'kind' = 'date_field')
    into kinds, fields
    from journeys j
    join journey_versions v on v.journey_id = j.id and v.version = j.version
    cross join jsonb_array_elements(v.definition->'triggers') t
    where j.status = 'active' and t->>'kind' in ('recurring_failed', 'first_gift_anniversary', 'date_field');
    if kinds is null then
        return 0;
    end if;
    with days as (
        select d::date as day from generate_series(greatest(last_day + 1, today - 6), today, interval '1 day') d
    ), dated as (
        -- (kind, field, contact, the local date the event is the anniversary or the deadline of)
        select 'first_gift_anniversary' as kind, null::text as field, g.contact_id, (g.first_gift_at at time zone tz)::date as at
        from contact_giving g where 'first_gift_anniversary' = any(kinds) and g.first_gift_at is not null
        union all
        select 'date_field', 'last_gift_date', g.contact_id, (g.last_gift_at at time zone tz)::date
        from contact_giving g where 'last_gift_date' = any(fields) and g.last_gift_at is not null
        union all
        select 'date_field', 'signup_date', c.id, (c.created at time zone tz)::date
        from contacts c where 'signup_date' = any(fields)
    ), due as (
        select d.kind, d.field, d.contact_id
        from dated d join days on extract(year from days.day) > extract(year from d.at)
         and (to_char(d.at, 'MM-DD') = to_char(days.day, 'MM-DD')
              -- February 29 comes round on February 28 in the years that have none.
              or (to_char(d.at, 'MM-DD') = '02-29' and to_char(days.day, 'MM-DD') = '02-28'
                  and to_char(days.day + 1, 'MM-DD') = '03-01'))
        union all
        select 'recurring_failed', null, g.contact_id
        from contact_giving g join days on (g.last_recurring_at at time zone tz)::date + 35 = days.day
        where 'recurring_failed' = any(kinds)
          and not exists (
              select 1 from contributions c
              where c.contact_id = g.contact_id and c.paid_at = g.last_recurring_at and c.recurring_months > 0
                and c.recurrence_number >= c.recurring_months)
    )
    insert into journey_events (kind, field, contact_id)
    select kind, field, contact_id from due;
    get diagnostics emitted = row_count;
    return emitted;
end
$$;
