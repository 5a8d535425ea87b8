-- A weekly recurring series was called failed after 35 days without a charge, like a monthly one. The gift rows
-- do not say a series' period, but its charges do: a series whose last charge came at most 10 days after the one
-- before is weekly and has failed 10 days after its last charge (docs/domain.md, "active sustainer").
create or replace function journey_calendar_events(p_now timestamptz) returns integer
language plpgsql set search_path from current as $$
declare
    tz text := coalesce((select time_zone from app_settings limit 1), 'America/New_York');
    today date := (p_now at time zone tz)::date;
    last_day date;
    kinds text[];
    fields text[];
    emitted integer;
begin
    -- Every scheduler pass asks; all but the first of a day end at this plain read, without a lock or a write.
    select day into last_day from journey_calendar;
    if last_day >= today then
        return 0;
    end if;
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
        from contact_giving g
        -- A weekly series (its previous charge at most 10 days before the last) has failed 10 days after its last
        -- charge, any other 35 days after (docs/domain.md, "active sustainer"). Only the contacts whose last
        -- charge could be due on one of the days are looked at.
        cross join lateral (
            select (g.last_recurring_at at time zone tz)::date as last_charged,
                   case when exists (
                            select 1 from contributions p
                            where p.contact_id = g.contact_id and p.recurring_months is not null and p.amount > 0
                              and p.paid_at < g.last_recurring_at
                              and p.paid_at >= g.last_recurring_at - interval '10 days')
                        then 10 else 35 end as grace
        ) s
        join days on s.last_charged + s.grace = days.day
        where 'recurring_failed' = any(kinds)
          and g.last_recurring_at >= (greatest(last_day + 1, today - 6) - 36)::timestamp at time zone tz
          and g.last_recurring_at < (today - 9)::timestamp at time zone tz
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
