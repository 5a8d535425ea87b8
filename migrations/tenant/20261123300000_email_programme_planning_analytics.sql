-- E-mail programme: the planning calendar, the programme analytics rollup and external mailings.

-- Election day, marked on the planning calendar when set.
alter table app_settings add column election_day date;

-- A planned send: a dated intention with a revenue goal, made into a draft mailing in one click.
create table planned_sends (
    id bigint generated always as identity primary key,
    send_date date not null,
    name text not null check (length(btrim(name)) > 0),
    segment_id bigint references segments (id) on delete set null,
    revenue_goal numeric(14, 2) not null default 0 check (revenue_goal >= 0),
    -- The draft it became; from then on the calendar shows the mailing in its place.
    mailing_id bigint references mailings (id) on delete set null,
    created timestamptz not null default now()
);
create index planned_sends_date_idx on planned_sends (send_date);
create unique index planned_sends_mailing_key on planned_sends (mailing_id) where mailing_id is not null;

-- The revenue goal of a calendar month (the first day of the month).
create table planning_months (
    month date primary key check (extract(day from month) = 1),
    revenue_goal numeric(14, 2) not null check (revenue_goal >= 0)
);

-- The recipient's mailbox provider, from the domain of the address (README "E-mail analytics").
create function email_provider(email text) returns text language sql immutable as $$
    select case
        when d in ('gmail.com', 'googlemail.com') then 'gmail'
        when d like 'yahoo.%' or d like 'ymail.%' or d in ('rocketmail.com', 'aol.com', 'aim.com') then 'yahoo'
        when d like 'outlook.%' or d like 'hotmail.%' or d like 'live.%'
             or d in ('msn.com', 'windowslive.com', 'passport.com') then 'outlook'
        else 'other'
    end
    from (select lower(split_part(email, '@', 2)) as d) x
$$;

-- Whether a recipient opened, clicked (people only, machine events apart) or unsubscribed: set once, by the
-- trigger on mailing_events below, under the recipient's row lock so a recipient is counted once.
alter table mailing_recipients
    add column human_open boolean not null default false,
    add column human_click boolean not null default false,
    add column unsubscribed boolean not null default false;

-- Programme figures per client day × send hour × weekday × mailbox provider of the send (README).
create table email_stat_days (
    day date not null,
    send_hour smallint not null,
    weekday smallint not null,
    provider text not null,
    sent bigint not null default 0,
    delivered bigint not null default 0,
    bounced bigint not null default 0,
    opened bigint not null default 0,
    clicked bigint not null default 0,
    unsubscribed bigint not null default 0,
    primary key (day, send_hour, weekday, provider)
);

-- Human opens and clicks by event time, for the 90-day active rate.
create index mailing_events_engaged_idx on mailing_events (created) include (contact_id)
    where kind in ('open', 'click') and not machine;
create index mailing_events_unsubscribe_idx on mailing_events (contact_id, created) where kind = 'unsubscribe';

-- The statement adding a set of recipient rows to the rollup, each signed; `source` yields (sgn, recipient
-- columns) and `mailings_source` names the mailing rows to read their times from. A recipient counts once its
-- message went out (sent) or bounced; its time is sent_at, else the mailing's send attempt, send time or creation.
create function email_stat_sql(source text, mailings_source text default 'mailings') returns text
language sql immutable as $$
    select format($q$
        insert into email_stat_days as d
            (day, send_hour, weekday, provider, sent, delivered, bounced, opened, clicked, unsubscribed)
        select (t.at at time zone s.time_zone)::date, extract(hour from t.at at time zone s.time_zone),
               extract(isodow from t.at at time zone s.time_zone), email_provider(t.email),
               sum(t.sgn), coalesce(sum(t.sgn) filter (where t.status = 'sent'), 0),
               coalesce(sum(t.sgn) filter (where t.status = 'bounced'), 0),
               coalesce(sum(t.sgn) filter (where t.human_open), 0),
               coalesce(sum(t.sgn) filter (where t.human_click), 0),
               coalesce(sum(t.sgn) filter (where t.unsubscribed), 0)
        from (select r.sgn, r.email, r.status, r.human_open, r.human_click, r.unsubscribed,
                     coalesce(r.sent_at, m.send_attempt, m.send_time, m.created) as at
              from (%s) r join %s m on m.id = r.mailing_id
              where r.status in ('sent', 'bounced')) t
        cross join app_settings s
        group by 1, 2, 3, 4
        on conflict (day, send_hour, weekday, provider) do update set
            sent = d.sent + excluded.sent, delivered = d.delivered + excluded.delivered,
            bounced = d.bounced + excluded.bounced, opened = d.opened + excluded.opened,
            clicked = d.clicked + excluded.clicked, unsubscribed = d.unsubscribed + excluded.unsubscribed
    $q$, source, mailings_source)
$$;

create function email_stats_insert() returns trigger language plpgsql as $$
begin
    execute email_stat_sql('select 1 as sgn, * from new_rows');
    return null;
end
$$;

create function email_stats_update() returns trigger language plpgsql as $$
begin
    execute email_stat_sql(
        'select -1 as sgn, o.* from old_rows o join new_rows n using (mailing_id, contact_id)
         where (o.status, o.sent_at, o.email, o.human_open, o.human_click, o.unsubscribed)
               is distinct from (n.status, n.sent_at, n.email, n.human_open, n.human_click, n.unsubscribed)
           and o.status in (''sent'', ''bounced'')
         union all
         select 1 as sgn, n.* from old_rows o join new_rows n using (mailing_id, contact_id)
         where (o.status, o.sent_at, o.email, o.human_open, o.human_click, o.unsubscribed)
               is distinct from (n.status, n.sent_at, n.email, n.human_open, n.human_click, n.unsubscribed)
           and n.status in (''sent'', ''bounced'')');
    return null;
end
$$;

create function email_stats_delete() returns trigger language plpgsql as $$
begin
    execute email_stat_sql('select -1 as sgn, * from old_rows');
    return null;
end
$$;

create trigger email_stats_insert after insert on mailing_recipients
    referencing new table as new_rows for each statement execute function email_stats_insert();
create trigger email_stats_update after update on mailing_recipients
    referencing old table as old_rows new table as new_rows
    for each statement execute function email_stats_update();
create trigger email_stats_delete after delete on mailing_recipients
    referencing old table as old_rows for each statement execute function email_stats_delete();

-- A deleted mailing takes its recipients' figures with it. This trigger fires before mailings_cascade (names
-- in order) deletes the recipient rows, whose own trigger then no longer finds their mailing and counts nothing.
create function email_stats_mailings_deleted() returns trigger language plpgsql as $$
begin
    execute email_stat_sql('select -1 as sgn, r.* from mailing_recipients r join gone_mailings g on g.id = r.mailing_id',
                           'gone_mailings');
    return null;
end
$$;
create trigger email_stats_mailings_deleted after delete on mailings
    referencing old table as gone_mailings for each statement execute function email_stats_mailings_deleted();

-- A recipient without sent_at takes its time from its mailing: a change of those times moves it.
create function email_stats_mailings_moved() returns trigger language plpgsql as $$
begin
    if exists (select 1 from old_mailings o join new_mailings n using (id)
               where (o.send_attempt, o.send_time) is distinct from (n.send_attempt, n.send_time)) then
        execute email_stat_sql(
            'select -1 as sgn, r.* from mailing_recipients r join old_mailings o on o.id = r.mailing_id
             join new_mailings n on n.id = o.id
             where r.sent_at is null and (o.send_attempt, o.send_time) is distinct from (n.send_attempt, n.send_time)',
            'old_mailings');
        execute email_stat_sql(
            'select 1 as sgn, r.* from mailing_recipients r join new_mailings n on n.id = r.mailing_id
             join old_mailings o on o.id = n.id
             where r.sent_at is null and (o.send_attempt, o.send_time) is distinct from (n.send_attempt, n.send_time)',
            'new_mailings');
    end if;
    return null;
end
$$;
create trigger email_stats_mailings_moved after update on mailings
    referencing old table as old_mailings new table as new_mailings
    for each statement execute function email_stats_mailings_moved();

-- The event writer's rows mark their recipients; the recipient trigger above moves the rollup.
create function mailing_events_mark_recipients() returns trigger language plpgsql as $$
begin
    update mailing_recipients r
    set human_open = r.human_open or e.opened,
        human_click = r.human_click or e.clicked,
        unsubscribed = r.unsubscribed or e.unsub
    from (select mailing_id, contact_id,
                 bool_or(kind = 'open' and not machine) as opened,
                 bool_or(kind = 'click' and not machine) as clicked,
                 bool_or(kind = 'unsubscribe') as unsub
          from new_rows group by 1, 2) e
    where r.mailing_id = e.mailing_id and r.contact_id = e.contact_id
      and ((e.opened and not r.human_open) or (e.clicked and not r.human_click)
           or (e.unsub and not r.unsubscribed));
    return null;
end
$$;

create trigger mailing_events_mark_recipients after insert on mailing_events
    referencing new table as new_rows for each statement execute function mailing_events_mark_recipients();

-- Recounts the rollup from the facts (a change of time zone moves every day).
create function rebuild_email_stats() returns void language plpgsql as $$
begin
    delete from email_stat_days;
    execute email_stat_sql('select 1 as sgn, * from mailing_recipients');
end
$$;

create function app_settings_time_zone_email_stats() returns trigger language plpgsql as $$
begin
    perform rebuild_email_stats();
    return null;
end
$$;

create trigger app_settings_time_zone_email_stats after update of time_zone on app_settings
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function app_settings_time_zone_email_stats();

-- Existing events mark their recipients (the trigger fires for this statement too), then a full count.
alter table mailing_recipients disable trigger email_stats_update;
update mailing_recipients r
set human_open = e.opened, human_click = e.clicked, unsubscribed = e.unsub
from (select mailing_id, contact_id,
             bool_or(kind = 'open' and not machine) as opened,
             bool_or(kind = 'click' and not machine) as clicked,
             bool_or(kind = 'unsubscribe') as unsub
      from mailing_events group by 1, 2) e
where r.mailing_id = e.mailing_id and r.contact_id = e.contact_id;
alter table mailing_recipients enable trigger email_stats_update;
select rebuild_email_stats();

-- Sends made elsewhere (another e-mail platform, a lemlist campaign), imported from CSV.
create table external_mailings (
    id bigint generated always as identity primary key,
    source text not null check (source in ('esp', 'lemlist')),
    name text not null check (length(btrim(name)) > 0),
    sent_on date not null,
    recipients bigint not null default 0 check (recipients >= 0),
    delivered bigint not null default 0 check (delivered >= 0),
    bounces bigint not null default 0 check (bounces >= 0),
    opens bigint not null default 0 check (opens >= 0),
    clicks bigint not null default 0 check (clicks >= 0),
    unsubscribes bigint not null default 0 check (unsubscribes >= 0),
    revenue numeric(14, 2) not null default 0,
    job_id bigint,
    created timestamptz not null default now(),
    unique (source, name, sent_on)
);
create index external_mailings_sent_on_idx on external_mailings (sent_on);
