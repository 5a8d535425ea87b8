-- Segments and mailing audiences: the shared shape the segments and e-mail programme areas build on.

-- A segment is a named rule over the client's contacts. Its members are materialised by the "Update Segment" job:
-- one transaction replaces the segment's rows in segment_members and updates size/computed, so a reader (a
-- mailing freezing its audience) sees either the old membership or the new one, never half.
create table segments (
    id bigint generated always as identity primary key,
    name text not null check (length(btrim(name)) > 0),
    -- The rule tree as the browser sent it, after validation (see store::segments).
    rule jsonb not null default '{}',
    -- The key of a standard segment ('active_donors', 'lybunt' …); null for a user's own.
    standard text unique,
    size integer not null default 0,
    previous_size integer,
    computed timestamptz,
    created timestamptz not null default now(),
    updated timestamptz not null default now()
);
create unique index segments_name_key on segments (lower(name));

create table segment_members (
    segment_id bigint not null references segments (id) on delete cascade,
    contact_id bigint not null,
    primary key (segment_id, contact_id)
);
create index segment_members_contact_idx on segment_members (contact_id);

-- A mailing's audience is a list or a segment, minus any number of suppression lists or segments.
alter table mailings add column segment_id bigint references segments (id) on delete set null;

create table mailing_suppressions (
    mailing_id bigint not null references mailings (id) on delete cascade,
    list_id bigint references crm_lists (id) on delete cascade,
    segment_id bigint references segments (id) on delete cascade,
    check ((list_id is null) <> (segment_id is null))
);
create unique index mailing_suppressions_key on mailing_suppressions (mailing_id, coalesce(list_id, 0), coalesce(segment_id, 0));

-- The contacts a mailing goes to, written once: subscribed members of its list or segment, minus every member of
-- its suppression lists and segments. The send freezes this set into mailing_recipients when it starts.
create function mailing_audience(p_mailing_id bigint) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select c.id
    from contacts c
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

-- Donor status rules shared by standard segments and reports. A gift counts when it names a contact, is positive
-- and is not refunded. Years are the client's fiscal years (app_settings.fiscal_year_start, 1 = January) in the
-- client's time zone.

-- The first day of the fiscal year that contains p_day.
create function fiscal_year_start(p_day date) returns date
language sql stable set search_path from current as $$
    select make_date(extract(year from p_day)::integer
                         - case when extract(month from p_day) < s.fiscal_year_start then 1 else 0 end,
                     s.fiscal_year_start, 1)
    from app_settings s limit 1
$$;

-- Today in the client's time zone.
create function client_today() returns date
language sql stable set search_path from current as $$
    select (now() at time zone s.time_zone)::date from app_settings s limit 1
$$;

-- The instant a calendar day starts in the client's time zone.
create function client_day_start(p_day date) returns timestamptz
language sql stable set search_path from current as $$
    select p_day::timestamp at time zone s.time_zone from app_settings s limit 1
$$;

-- LYBUNT: gave in the fiscal year before the one containing p_today, and nothing since that year ended.
create function lybunt_contacts(p_today date) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at >= client_day_start((fiscal_year_start(p_today) - interval '1 year')::date)
      and g.paid_at < client_day_start(fiscal_year_start(p_today))
    except
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at >= client_day_start(fiscal_year_start(p_today))
$$;

-- SYBUNT: gave in some fiscal year before the one containing p_today (last year included), and nothing since.
create function sybunt_contacts(p_today date) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at < client_day_start(fiscal_year_start(p_today))
    except
    select g.contact_id from contributions g
    where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
      and g.paid_at >= client_day_start(fiscal_year_start(p_today))
$$;
