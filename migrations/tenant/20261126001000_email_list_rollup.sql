-- E-mail Analytics' list figures (subscribed, new subscribers, active) from a rollup instead of scanning contacts
-- and mailing_events per request (issue 15). Definitions (README "E-mail analytics"), for a period ending on client
-- day L:
--   new subscribers = contacts created on a client day of the period;
--   subscribed      = contacts created by L − contacts not subscribed today whose leaving day is ≤ L, leaving being
--                     their first unsubscribe event, else the send time of their first bounce, else their creation;
--   active          = existing contacts with a human open or click on a client day in L − 89 … L, not left by L.
-- Each is a running sum over days of `email_list_days`, whose rows hold per-day changes. Per contact,
-- `email_contact_state` keeps the inputs (exit_at, engaged) and the contribution last added (left_day, active), so
-- a change of one contact takes its old contribution away and adds the new one.

-- Per client day: contacts created, leavers leaving, and the change of the active count that day.
create table email_list_days (
    day date primary key,
    joined bigint not null default 0,
    left_count bigint not null default 0,
    active bigint not null default 0
);

create table email_contact_state (
    contact_id bigint primary key,
    -- First unsubscribe event or first bounce's send time (whether or not the contact is subscribed today).
    exit_at timestamptz,
    -- ∪ [d, d + 90) over the client days d of the contact's human opens and clicks: the period ends it is active.
    engaged datemultirange not null default '{}',
    -- Contribution in email_list_days: the leaving day (leavers only) and the active runs (existing contacts only,
    -- cut at the leaving day).
    left_day date,
    active datemultirange not null default '{}'
);

-- The bounces of a contact, to recount its first one.
create index mailing_recipients_bounced_idx on mailing_recipients (contact_id) where status = 'bounced';
-- Attributed revenue of a period reads this index alone.
create index contributions_email_revenue_idx on contributions (paid_at) include (amount)
    where mailing_id is not null and amount > 0 and refunded_at is null and refund_id is null;

-- Recomputes the contribution of the given contacts from their state and their contact row, and moves
-- email_list_days by the difference. State rows are locked first (in id order) so concurrent writers serialise.
create function email_list_refresh(p_ids bigint[]) returns void language plpgsql as $$
begin
    insert into email_contact_state (contact_id)
    select distinct i from unnest(p_ids) i order by 1 on conflict do nothing;
    perform 1 from email_contact_state s where s.contact_id = any(p_ids) order by s.contact_id for update;
    with o as (
        select s.* from email_contact_state s where s.contact_id = any(p_ids)
    ),
    n as (
        select o.contact_id, l.left_day,
               case when c.id is null then '{}'::datemultirange
                    when l.left_day is null then o.engaged
                    else o.engaged - datemultirange(daterange(l.left_day, null)) end as active
        from o left join contacts c on c.id = o.contact_id cross join app_settings t
        left join lateral (select (coalesce(o.exit_at, c.created) at time zone t.time_zone)::date as left_day
                           where c.subscription <> 'subscribed') l on true
    ),
    upd as (
        update email_contact_state s set left_day = n.left_day, active = n.active
        from n where s.contact_id = n.contact_id
          and (s.left_day is distinct from n.left_day or s.active <> n.active)
    ),
    deltas (day, lft, act) as (
        select left_day, 1, 0 from n where left_day is not null
        union all select left_day, -1, 0 from o where left_day is not null
        union all select lower(r), 0, 1 from n, unnest(n.active) r
        union all select upper(r), 0, -1 from n, unnest(n.active) r
        union all select lower(r), 0, -1 from o, unnest(o.active) r
        union all select upper(r), 0, 1 from o, unnest(o.active) r
    )
    insert into email_list_days as d (day, left_count, active)
    select day, sum(lft), sum(act) from deltas group by day having sum(lft) <> 0 or sum(act) <> 0 order by day
    on conflict (day) do update set left_count = d.left_count + excluded.left_count,
                                   active = d.active + excluded.active;
end
$$;

-- Recounts the given contacts' exit_at (and with p_engaged their engagement) from the facts, then refreshes them.
create function email_list_recount(p_ids bigint[], p_engaged boolean) returns void language plpgsql as $$
begin
    insert into email_contact_state (contact_id)
    select distinct i from unnest(p_ids) i order by 1 on conflict do nothing;
    perform 1 from email_contact_state s where s.contact_id = any(p_ids) order by s.contact_id for update;
    update email_contact_state s
    set exit_at = least((select min(e.created) from mailing_events e
                         where e.kind = 'unsubscribe' and e.contact_id = s.contact_id),
                        (select min(coalesce(r.sent_at, m.send_attempt, m.send_time, m.created))
                         from mailing_recipients r join mailings m on m.id = r.mailing_id
                         where r.contact_id = s.contact_id and r.status = 'bounced'))
    where s.contact_id = any(p_ids);
    if p_engaged then
        update email_contact_state s
        set engaged = coalesce((select range_agg(daterange(d, d + 90))
                                from (select distinct (e.created at time zone t.time_zone)::date as d
                                      from mailing_events e cross join app_settings t
                                      where e.contact_id = s.contact_id and e.kind in ('open', 'click')
                                        and not e.machine) x), '{}')
        where s.contact_id = any(p_ids);
    end if;
    perform email_list_refresh(p_ids);
end
$$;

-- New events: human opens and clicks widen `engaged`, an unsubscribe may bring exit_at forward (both only grow,
-- so no recount is needed).
create function email_list_events_insert() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    with e as (
        select x.contact_id, range_agg(daterange(x.d, x.d + 90)) filter (where x.human) as engaged,
               min(x.created) filter (where x.kind = 'unsubscribe') as exit_at
        from (select r.contact_id, r.kind, r.created, (r.created at time zone t.time_zone)::date as d,
                     r.kind in ('open', 'click') and not r.machine as human
              from new_rows r cross join app_settings t
              where r.kind = 'unsubscribe' or not r.machine) x
        group by x.contact_id
    ),
    up as (
        insert into email_contact_state as s (contact_id, exit_at, engaged)
        select contact_id, exit_at, coalesce(engaged, '{}') from e order by contact_id
        on conflict (contact_id) do update
            set exit_at = least(s.exit_at, excluded.exit_at), engaged = s.engaged + excluded.engaged
            where excluded.exit_at < s.exit_at or (s.exit_at is null and excluded.exit_at is not null)
               or not s.engaged @> excluded.engaged
        returning s.contact_id
    )
    select array_agg(contact_id) into ids from up;
    if ids is not null then
        perform email_list_refresh(ids);
    end if;
    return null;
end
$$;
create trigger email_list_events_insert after insert on mailing_events
    referencing new table as new_rows for each statement execute function email_list_events_insert();

-- Events are not updated or deleted by the product; should it happen, the contacts concerned are recounted.
create function email_list_events_changed() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    select array_agg(distinct contact_id) into ids from old_rows;
    if ids is not null then
        perform email_list_recount(ids, true);
    end if;
    return null;
end
$$;
create trigger email_list_events_update after update on mailing_events
    referencing old table as old_rows for each statement execute function email_list_events_changed();
create trigger email_list_events_delete after delete on mailing_events
    referencing old table as old_rows for each statement execute function email_list_events_changed();

-- Bounces: a recipient row becoming, ceasing to be, or moving as a bounce recounts its contact's exit_at.
create function email_list_recipients_insert() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    select array_agg(distinct contact_id) into ids from new_rows where status = 'bounced';
    if ids is not null then
        perform email_list_recount(ids, false);
    end if;
    return null;
end
$$;
create trigger email_list_recipients_insert after insert on mailing_recipients
    referencing new table as new_rows for each statement execute function email_list_recipients_insert();

create function email_list_recipients_update() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    select array_agg(distinct o.contact_id) into ids
    from old_rows o join new_rows n using (mailing_id, contact_id)
    where (o.status = 'bounced' or n.status = 'bounced')
      and (o.status, o.sent_at) is distinct from (n.status, n.sent_at);
    if ids is not null then
        perform email_list_recount(ids, false);
    end if;
    return null;
end
$$;
create trigger email_list_recipients_update after update on mailing_recipients
    referencing old table as old_rows new table as new_rows
    for each statement execute function email_list_recipients_update();

create function email_list_recipients_delete() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    select array_agg(distinct contact_id) into ids from old_rows where status = 'bounced';
    if ids is not null then
        perform email_list_recount(ids, false);
    end if;
    return null;
end
$$;
create trigger email_list_recipients_delete after delete on mailing_recipients
    referencing old table as old_rows for each statement execute function email_list_recipients_delete();

-- A bounce without sent_at takes its time from its mailing.
create function email_list_mailings_moved() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    select array_agg(distinct r.contact_id) into ids
    from old_mailings o join new_mailings n using (id)
    join mailing_recipients r on r.mailing_id = n.id and r.status = 'bounced' and r.sent_at is null
    where (o.send_attempt, o.send_time, o.created) is distinct from (n.send_attempt, n.send_time, n.created);
    if ids is not null then
        perform email_list_recount(ids, false);
    end if;
    return null;
end
$$;
create trigger email_list_mailings_moved after update on mailings
    referencing old table as old_mailings new table as new_mailings
    for each statement execute function email_list_mailings_moved();

-- Contacts: creation days go straight to `joined`; leavers and contacts with a state are refreshed.
create function email_list_contacts_insert() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    insert into email_list_days as d (day, joined)
    select (n.created at time zone t.time_zone)::date, count(*) from new_rows n cross join app_settings t
    group by 1 order by 1
    on conflict (day) do update set joined = d.joined + excluded.joined;
    select array_agg(n.id) into ids from new_rows n
    where n.subscription <> 'subscribed' or exists (select 1 from email_contact_state s where s.contact_id = n.id);
    if ids is not null then
        perform email_list_refresh(ids);
    end if;
    return null;
end
$$;
create trigger email_list_contacts_insert after insert on contacts
    referencing new table as new_rows for each statement execute function email_list_contacts_insert();

create function email_list_contacts_delete() returns trigger language plpgsql as $$
declare
    ids bigint[];
begin
    insert into email_list_days as d (day, joined)
    select (g.created at time zone t.time_zone)::date, -count(*) from gone_contacts g cross join app_settings t
    group by 1 order by 1
    on conflict (day) do update set joined = d.joined + excluded.joined;
    select array_agg(s.contact_id) into ids from gone_contacts g join email_contact_state s on s.contact_id = g.id;
    if ids is not null then
        perform email_list_refresh(ids);
    end if;
    return null;
end
$$;
create trigger email_list_contacts_delete after delete on contacts
    referencing old table as gone_contacts for each statement execute function email_list_contacts_delete();

-- Row-level with a condition, so imports rewriting names of a million contacts pay nothing: only a change of
-- subscription or creation time (one contact at a time in the product) runs it.
create function email_list_contacts_update() returns trigger language plpgsql as $$
begin
    if old.created is distinct from new.created then
        insert into email_list_days as d (day, joined)
        select x.day, x.n from app_settings t,
             lateral (values ((old.created at time zone t.time_zone)::date, -1),
                             ((new.created at time zone t.time_zone)::date, 1)) x (day, n)
        order by 1
        on conflict (day) do update set joined = d.joined + excluded.joined;
    end if;
    perform email_list_refresh(array[new.id]);
    return null;
end
$$;
create trigger email_list_contacts_update after update of subscription, created on contacts
    for each row when (old.subscription is distinct from new.subscription or old.created is distinct from new.created)
    execute function email_list_contacts_update();

-- Recounts everything from the facts: the backfill below, and a change of time zone (it moves every day).
create function rebuild_email_list() returns void language plpgsql as $$
declare
    ids bigint[];
begin
    delete from email_list_days;
    delete from email_contact_state;
    insert into email_list_days (day, joined)
    select (c.created at time zone t.time_zone)::date, count(*) from contacts c cross join app_settings t group by 1;
    insert into email_contact_state (contact_id, exit_at, engaged)
    select x.contact_id, min(x.exit_at), coalesce(range_agg(x.engaged) filter (where x.engaged is not null), '{}')
    from (select e.contact_id, case when e.kind = 'unsubscribe' then e.created end as exit_at,
                 case when e.kind <> 'unsubscribe' then daterange(d, d + 90) end as engaged
          from mailing_events e cross join app_settings t
          cross join lateral (select (e.created at time zone t.time_zone)::date as d) dd
          where e.kind = 'unsubscribe' or not e.machine
          union all
          select r.contact_id, coalesce(r.sent_at, m.send_attempt, m.send_time, m.created), null
          from mailing_recipients r join mailings m on m.id = r.mailing_id where r.status = 'bounced') x
    group by x.contact_id;
    select array_agg(s.contact_id) into ids from email_contact_state s;
    select array_agg(c.id) || ids into ids from contacts c where c.subscription <> 'subscribed';
    if ids is not null then
        perform email_list_refresh(ids);
    end if;
end
$$;

create function app_settings_time_zone_email_list() returns trigger language plpgsql as $$
begin
    perform rebuild_email_list();
    return null;
end
$$;
create trigger app_settings_time_zone_email_list after update of time_zone on app_settings
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function app_settings_time_zone_email_list();

select rebuild_email_list();
