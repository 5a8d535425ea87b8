-- Regular mailings respect the programme's frequency cap (docs/journeys.md, "Frequency cap"), as ActionKit's
-- autoexclude does: the send leaves out whoever already had `per_day` e-mails that client day or `per_week` that
-- client week, counting every e-mail (journeys' and mailings', queued or sent). An urgent mailing may ignore it.
alter table mailings add column respect_cap boolean not null default true;

-- Who the send left out for the cap, so the mailing's page can say how many (and the figures stay explainable).
create table mailing_held_back (
    mailing_id bigint not null references mailings (id) on delete cascade,
    contact_id bigint not null,
    primary key (mailing_id, contact_id)
);

-- The mailing's audience members who have reached the cap at `p_at`; empty when the mailing ignores the cap or
-- no cap is set. `p_at` is the caller's clock (the journeys' movable one in tests). Counted through the week's
-- mailings and their recipients' primary key, as the journey engine counts, so the hot recipients table needs no
-- other index; the mailing itself is never counted.
create function mailing_capped(p_mailing_id bigint, p_at timestamptz) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    with z as (
        select (p_at at time zone s.time_zone)::date::timestamp at time zone s.time_zone as day_start,
               date_trunc('week', p_at at time zone s.time_zone) at time zone s.time_zone as week_start,
               l.per_day, l.per_week
        from (select time_zone from app_settings limit 1) s
        cross join journey_limits l
        where (l.per_day is not null or l.per_week is not null)
          and (select m.respect_cap from mailings m where m.id = p_mailing_id)
    )
    select r.contact_id
    from z
    join mailings m on m.send_attempt >= z.week_start - interval '1 day' and m.id <> p_mailing_id
    join mailing_recipients r on r.mailing_id = m.id
    where r.status in ('queued', 'sending', 'sent')
      and coalesce(r.sent_at, m.send_attempt) >= z.week_start
      and r.contact_id in (select a.contact_id from mailing_audience(p_mailing_id) a)
    group by r.contact_id, z.day_start, z.per_day, z.per_week
    having count(*) filter (where coalesce(r.sent_at, m.send_attempt) >= z.day_start) >= z.per_day
        or count(*) >= z.per_week
$$;
