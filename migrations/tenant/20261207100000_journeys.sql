-- Journeys (issue 31): versioned definitions, each contact's place in one, the record of every step a contact
-- reached, the small events table the writers fill and the engine drains, the programme-wide frequency cap and
-- the offset of the movable test clock.
create table journeys (
    id bigint generated always as identity primary key,
    name text not null check (length(btrim(name)) between 1 and 200),
    status text not null default 'draft' check (status in ('draft', 'active', 'paused', 'archived')),
    -- The version new contacts enter; contacts already inside keep the one they entered.
    version integer not null default 1,
    -- Once active, an edit makes a new version instead of changing the one contacts may be in.
    ever_active boolean not null default false,
    created timestamptz not null default now(),
    updated timestamptz not null default now()
);

create table journey_versions (
    journey_id bigint not null references journeys (id) on delete cascade,
    version integer not null,
    definition jsonb not null,
    created_at timestamptz not null default now(),
    primary key (journey_id, version)
);

-- One row per enrolment: where the contact is, and when the engine should look at it next.
create table journey_contacts (
    id bigint generated always as identity primary key,
    journey_id bigint not null references journeys (id) on delete cascade,
    version integer not null,
    contact_id bigint not null references contacts (id) on delete cascade,
    step_id text not null,
    state text not null default 'waiting' check (state in ('waiting', 'finished', 'exited')),
    due_at timestamptz,
    entered_at timestamptz not null,
    left_at timestamptz,
    exit_reason text,
    -- How many steps this enrolment has taken: the key of its step records, so a repeated pass never doubles one.
    seq integer not null default 0,
    -- The contact sits in the wait step `step_id` until `due_at`; otherwise `step_id` runs when due.
    in_wait boolean not null default false,
    foreign key (journey_id, version) references journey_versions (journey_id, version) on delete cascade
);
create index journey_contacts_due_idx on journey_contacts (due_at) where state = 'waiting';
create unique index journey_contacts_inside_idx on journey_contacts (journey_id, contact_id) where state = 'waiting';
create index journey_contacts_contact_idx on journey_contacts (contact_id, journey_id);
create index journey_contacts_journey_idx on journey_contacts (journey_id, version, entered_at);

-- Every step an enrolment reached, once (the primary key); a send step's row names the mailing that carries
-- its e-mail, so opens, clicks, unsubscribes and gifts are attributed as a mailing's are.
create table journey_step_sends (
    journey_contact_id bigint not null references journey_contacts (id) on delete cascade,
    seq integer not null,
    journey_id bigint not null,
    version integer not null,
    step_id text not null,
    contact_id bigint not null,
    outcome text not null check (outcome in ('reached', 'sent', 'skipped', 'suppressed', 'capped')),
    mailing_id bigint references mailings (id) on delete set null,
    at timestamptz not null,
    primary key (journey_contact_id, seq)
);
create index journey_step_sends_step_idx on journey_step_sends (journey_id, version, step_id);
create index journey_step_sends_mailing_idx on journey_step_sends (mailing_id, contact_id) where mailing_id is not null;

-- A send step's e-mails of one day (client's zone) are a mailing of their own, made when the step first sends
-- that day and never listed with the hand-made ones: the send path delivers, tracks and attributes them.
alter table mailings add column journey_id bigint references journeys (id) on delete set null;
create table journey_step_mailings (
    journey_id bigint not null,
    version integer not null,
    step_id text not null,
    day date not null,
    mailing_id bigint not null references mailings (id) on delete cascade,
    primary key (journey_id, version, step_id, day),
    foreign key (journey_id, version) references journey_versions (journey_id, version) on delete cascade
);

-- What the writers know (a signup, a list add, a gift, a segment entry), kept until the engine has enrolled.
create table journey_events (
    id bigint generated always as identity primary key,
    kind text not null check (kind in ('form_signup', 'origin_code_signup', 'list_added', 'segment_entered',
        'gift', 'recurring_started', 'recurring_failed', 'recurring_ended')),
    contact_id bigint not null,
    ref_id bigint,
    amount_cents bigint,
    created timestamptz not null default now()
);

-- The programme-wide frequency cap and quiet hours (journeys and regular sends); null is no limit.
create table journey_limits (
    only_row boolean primary key default true check (only_row),
    per_day integer check (per_day > 0),
    per_week integer check (per_week > 0),
    quiet_start_hour integer check (quiet_start_hour between 0 and 23),
    quiet_end_hour integer check (quiet_end_hour between 0 and 23)
);

-- The movable clock's offset, honoured only by processes started with COMPASS_TEST_CLOCK=1.
create table test_clock (
    only_row boolean primary key default true check (only_row),
    offset_seconds bigint not null default 0
);

-- The first time after `from_ts` that is `weekday` (0 = Monday) at `hour` o'clock in the zone `tz`; daylight
-- saving is the database's to get right.
create function journey_next_weekday_hour(from_ts timestamptz, tz text, weekday integer, hour integer)
returns timestamptz language sql stable as $$
    select min(t) from (
        select (((from_ts at time zone tz)::date + d) + make_time(hour, 0, 0)) at time zone tz as t
        from generate_series(0, 7) d
        where extract(isodow from (from_ts at time zone tz)::date + d)::integer - 1 = weekday
    ) x where t > from_ts
$$;

-- The writers that know emit journey events. Gifts (the ActBlue webhook, contribution imports) and list members
-- (uploads, imports, journeys' own list steps) are written by many statements, so one statement-level trigger
-- each says it once; nothing is written while the client has no active journey.
create function journey_events_from_gifts() returns trigger
language plpgsql set search_path from current as $$
begin
    if exists (select 1 from journeys where status = 'active') then
        insert into journey_events (kind, contact_id, ref_id, amount_cents)
        select k.kind, n.contact_id, n.id, (n.amount * 100)::bigint
        from added n cross join (values ('gift'), ('recurring_started')) k (kind)
        where n.contact_id is not null and n.amount > 0
          and (k.kind = 'gift' or (n.recurring_months is not null and coalesce(n.recurrence_number, 1) = 1));
    end if;
    return null;
end
$$;
create trigger contributions_journey_events after insert on contributions
    referencing new table as added for each statement execute function journey_events_from_gifts();

create function journey_events_from_list_members() returns trigger
language plpgsql set search_path from current as $$
begin
    if exists (select 1 from journeys where status = 'active') then
        insert into journey_events (kind, contact_id, ref_id)
        select 'list_added', n.contact_id, n.list_id from added n;
    end if;
    return null;
end
$$;
create trigger crm_list_members_journey_events after insert on crm_list_members
    referencing new table as added for each statement execute function journey_events_from_list_members();
