-- Variants of a mailing and the per mailing × variant × segment × day rollups the performance page reads.

-- A mailing's variants B, C … (A is the mailing itself). A null field means "as the mailing".
create table mailing_variants (
    mailing_id bigint not null references mailings (id) on delete cascade,
    letter text not null check (letter ~ '^[b-z]$'),
    subject_line text,
    sender_id bigint references senders (id) on delete set null,
    preview_text text,
    body_html text,
    primary key (mailing_id, letter)
);

alter table mailings
    add column preview_text text not null default '',
    -- The seed the audience split is drawn with: the same seed splits the same audience the same way.
    add column variant_seed bigint not null default (floor(random() * 2147483647))::bigint;

-- Each recipient's variant ('a' when the mailing has none) and the segment the audience came from (0: a list).
alter table mailing_recipients
    add column variant text not null default 'a',
    add column segment_id bigint not null default 0;

-- The contacts a mailing goes to with their variant: the audience ordered by a hash of the seed and the contact,
-- dealt round-robin to the variants, so every variant gets the same number of recipients within one.
create function mailing_audience_split(p_mailing_id bigint) returns table (contact_id bigint, variant text)
language sql stable set search_path from current as $$
    with v as (
        select array_agg(letter order by letter) as letters
        from (select 'a' as letter union all
              select letter from mailing_variants where mailing_id = p_mailing_id) l
    ), m as (select variant_seed from mailings where id = p_mailing_id)
    select a.contact_id,
           v.letters[1 + ((row_number() over (
               order by hashtextextended(a.contact_id::text, m.variant_seed), a.contact_id) - 1)
               % cardinality(v.letters))::int]
    from mailing_audience(p_mailing_id) a, v, m
$$;

create index mailing_events_first_idx on mailing_events (mailing_id, contact_id, kind) where not machine;

create table mailing_rollups (
    mailing_id bigint not null references mailings (id) on delete cascade,
    variant text not null,
    segment_id bigint not null,
    -- The client's calendar day the figures happened on (a recipient counts on the day its send started).
    day date not null,
    recipients bigint not null default 0,
    delivered bigint not null default 0,
    bounces bigint not null default 0,
    -- People who opened (or clicked) for the first time that day: summed over days, each person once.
    human_opens bigint not null default 0,
    machine_opens bigint not null default 0,
    clickers bigint not null default 0,
    clicks bigint not null default 0,
    unsubscribes bigint not null default 0,
    primary key (mailing_id, variant, segment_id, day)
);

-- The client's calendar day of an instant (the settings check the zone when it is saved, as the revenue rollups
-- rely on).
create function client_day(p_at timestamptz) returns date
language sql stable set search_path from current as $$
    select (p_at at time zone s.time_zone)::date from app_settings s limit 1
$$;

-- Recipients written: counted on the day of the mailing's send attempt.
create function mailing_rollups_recipients_inserted() returns trigger
language plpgsql set search_path from current as $$
begin
    insert into mailing_rollups as r (mailing_id, variant, segment_id, day, recipients, delivered, bounces)
    select n.mailing_id, n.variant, n.segment_id,
           coalesce(client_day(min(m.send_attempt)), client_day(now())),
           count(*), count(*) filter (where n.status = 'sent'), count(*) filter (where n.status = 'bounced')
    from new_rows n join mailings m on m.id = n.mailing_id
    group by n.mailing_id, n.variant, n.segment_id
    on conflict (mailing_id, variant, segment_id, day) do update
        set recipients = r.recipients + excluded.recipients,
            delivered = r.delivered + excluded.delivered,
            bounces = r.bounces + excluded.bounces;
    return null;
end $$;

-- A status change moves a recipient in or out of delivered and bounces, on the day the send started.
create function mailing_rollups_recipients_updated() returns trigger
language plpgsql set search_path from current as $$
begin
    insert into mailing_rollups as r (mailing_id, variant, segment_id, day, delivered, bounces)
    select d.mailing_id, d.variant, d.segment_id, coalesce(client_day(m.send_attempt), client_day(now())),
           sum(d.delivered), sum(d.bounces)
    from (select n.mailing_id, n.variant, n.segment_id,
                 (n.status = 'sent')::int - (o.status = 'sent')::int as delivered,
                 (n.status = 'bounced')::int - (o.status = 'bounced')::int as bounces
          from new_rows n join old_rows o on o.mailing_id = n.mailing_id and o.contact_id = n.contact_id
          where n.status is distinct from o.status) d
    join mailings m on m.id = d.mailing_id
    group by d.mailing_id, d.variant, d.segment_id, m.send_attempt
    having sum(d.delivered) <> 0 or sum(d.bounces) <> 0
    on conflict (mailing_id, variant, segment_id, day) do update
        set delivered = r.delivered + excluded.delivered,
            bounces = r.bounces + excluded.bounces;
    return null;
end $$;

-- Events written: counted on their own day, people once each (their first human open, their first click).
create function mailing_rollups_events_inserted() returns trigger
language plpgsql set search_path from current as $$
begin
    -- Two writers of the same mailing's events count "first" one after the other.
    perform pg_advisory_xact_lock(7215, (x.mailing_id % 2147483647)::int)
    from (select distinct mailing_id from new_rows order by 1) x;
    insert into mailing_rollups as r (mailing_id, variant, segment_id, day, human_opens, machine_opens, clickers,
                                      clicks, unsubscribes)
    select n.mailing_id, coalesce(rc.variant, 'a'), coalesce(rc.segment_id, 0), client_day(n.created),
           count(*) filter (where n.kind = 'open' and not n.machine and n.id = (
               select min(e.id) from mailing_events e
               where e.mailing_id = n.mailing_id and e.contact_id = n.contact_id and e.kind = 'open'
                 and not e.machine)),
           count(*) filter (where n.kind = 'open' and n.machine),
           count(*) filter (where n.kind = 'click' and not n.machine and n.id = (
               select min(e.id) from mailing_events e
               where e.mailing_id = n.mailing_id and e.contact_id = n.contact_id and e.kind = 'click'
                 and not e.machine)),
           count(*) filter (where n.kind = 'click' and not n.machine),
           count(*) filter (where n.kind = 'unsubscribe')
    from new_rows n
    left join mailing_recipients rc on rc.mailing_id = n.mailing_id and rc.contact_id = n.contact_id
    where exists (select 1 from mailings m where m.id = n.mailing_id)
    group by 1, 2, 3, 4
    on conflict (mailing_id, variant, segment_id, day) do update
        set human_opens = r.human_opens + excluded.human_opens,
            machine_opens = r.machine_opens + excluded.machine_opens,
            clickers = r.clickers + excluded.clickers,
            clicks = r.clicks + excluded.clicks,
            unsubscribes = r.unsubscribes + excluded.unsubscribes;
    return null;
end $$;

create trigger mailing_recipients_rollup_insert after insert on mailing_recipients
    referencing new table as new_rows for each statement execute function mailing_rollups_recipients_inserted();
create trigger mailing_recipients_rollup_update after update on mailing_recipients
    referencing old table as old_rows new table as new_rows
    for each statement execute function mailing_rollups_recipients_updated();
create trigger mailing_events_rollup_insert after insert on mailing_events
    referencing new table as new_rows for each statement execute function mailing_rollups_events_inserted();

-- Figures of mailings sent before the rollups existed.
insert into mailing_rollups (mailing_id, variant, segment_id, day, recipients, delivered, bounces)
select r.mailing_id, r.variant, r.segment_id, coalesce(client_day(m.send_attempt), client_day(now())),
       count(*), count(*) filter (where r.status = 'sent'), count(*) filter (where r.status = 'bounced')
from mailing_recipients r join mailings m on m.id = r.mailing_id
group by 1, 2, 3, 4;

insert into mailing_rollups as r (mailing_id, variant, segment_id, day, human_opens, machine_opens, clickers,
                                  clicks, unsubscribes)
select n.mailing_id, coalesce(rc.variant, 'a'), coalesce(rc.segment_id, 0), client_day(n.created),
       count(*) filter (where n.kind = 'open' and not n.machine and n.id = (
           select min(e.id) from mailing_events e where e.mailing_id = n.mailing_id
             and e.contact_id = n.contact_id and e.kind = 'open' and not e.machine)),
       count(*) filter (where n.kind = 'open' and n.machine),
       count(*) filter (where n.kind = 'click' and not n.machine and n.id = (
           select min(e.id) from mailing_events e where e.mailing_id = n.mailing_id
             and e.contact_id = n.contact_id and e.kind = 'click' and not e.machine)),
       count(*) filter (where n.kind = 'click' and not n.machine),
       count(*) filter (where n.kind = 'unsubscribe')
from mailing_events n
join mailings m on m.id = n.mailing_id
left join mailing_recipients rc on rc.mailing_id = n.mailing_id and rc.contact_id = n.contact_id
group by 1, 2, 3, 4
on conflict (mailing_id, variant, segment_id, day) do update
    set human_opens = r.human_opens + excluded.human_opens,
        machine_opens = r.machine_opens + excluded.machine_opens,
        clickers = r.clickers + excluded.clickers,
        clicks = r.clicks + excluded.clicks,
        unsubscribes = r.unsubscribes + excluded.unsubscribes;
