-- Deliverability (issue 30): what is heard back after the send, one event model for every way it arrives, and the
-- suppression list every send obeys.

-- The client's sending domains: the From domain of its senders, with the bounce domain that receives its VERP
-- envelope senders, the DKIM key that signs its mail and the warm-up plan that caps a new domain's daily volume.
create table sender_domains (
    id bigint generated always as identity primary key,
    domain text not null unique check (domain = lower(btrim(domain)) and domain <> ''),
    bounce_domain text check (bounce_domain = lower(btrim(bounce_domain)) and bounce_domain <> ''),
    dkim_selector text not null default 'compass' check (dkim_selector ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    dkim_algorithm text not null default 'rsa' check (dkim_algorithm in ('rsa', 'ed25519')),
    -- Sealed with the deployment's DKIM key secret; the api never sends it back.
    dkim_private_key bytea,
    -- The public key as the DNS record carries it (base64).
    dkim_public_key text,
    -- Warm-up: from warmup_start, at most warmup_daily_cap messages a day, growing by warmup_growth_percent a day.
    warmup_start date,
    warmup_daily_cap integer check (warmup_daily_cap > 0),
    warmup_growth_percent integer not null default 50 check (warmup_growth_percent between 0 and 1000),
    created timestamptz not null default now()
);

-- The raw evidence of an event (a bounce message, a feedback report, a webhook body), kept 90 days.
create table delivery_evidence (
    id bigint generated always as identity primary key,
    source text not null,
    content_type text not null,
    body bytea not null,
    received_at timestamptz not null default now()
);
create index delivery_evidence_received_idx on delivery_evidence (received_at);

-- Everything heard about one recipient's message: from the SMTP conversation, a bounce message to the VERP
-- address, a feedback report, a relay's webhook, or the recipient unsubscribing.
create table delivery_events (
    id bigint generated always as identity primary key,
    source text not null check (source in ('smtp', 'dsn', 'arf', 'ses', 'sendgrid', 'postmark', 'mailgun',
                                           'list_unsubscribe', 'link', 'person')),
    -- The provider's event id (or the report's Message-ID): a second delivery of the same event changes nothing.
    source_event_id text,
    kind text not null check (kind in ('delivered', 'deferred', 'bounced', 'complained', 'unsubscribed')),
    bounce_type text check (bounce_type in ('hard', 'soft')),
    status_code text,
    diagnostic text,
    email text not null check (email = lower(btrim(email))),
    mailing_id bigint references mailings (id) on delete set null,
    variant text,
    contact_id bigint references contacts (id) on delete set null,
    occurred_at timestamptz not null,
    received_at timestamptz not null default now(),
    evidence_id bigint references delivery_evidence (id) on delete set null,
    check ((kind = 'bounced') = (bounce_type is not null))
);
create unique index delivery_events_source_event_idx on delivery_events (source, source_event_id);
create index delivery_events_mailing_idx on delivery_events (mailing_id, kind) where mailing_id is not null;
create index delivery_events_email_idx on delivery_events (email, occurred_at);

-- Addresses no mailing, segment or list may mail. A lifted suppression stays as history.
create table suppressions (
    id bigint generated always as identity primary key,
    email text not null check (email = lower(btrim(email)) and email <> ''),
    reason text not null check (reason in ('hard_bounce', 'soft_bounces', 'complaint', 'manual', 'import')),
    event_id bigint references delivery_events (id) on delete set null,
    -- The person who suppressed it (by hand or by import); null when an event did.
    created_by text,
    note text,
    created timestamptz not null default now(),
    lifted_at timestamptz,
    lifted_by text
);
create unique index suppressions_active_idx on suppressions (email) where lifted_at is null;
create index suppressions_created_idx on suppressions (created desc);

alter table app_settings
    add column soft_bounce_limit integer not null default 3 check (soft_bounce_limit between 1 and 100),
    add column soft_bounce_days integer not null default 30 check (soft_bounce_days between 1 and 365),
    add column guard_after_delivered integer not null default 2000 check (guard_after_delivered between 1 and 10000000),
    add column complaint_pause_percent numeric(6, 3) not null default 0.3
        check (complaint_pause_percent > 0 and complaint_pause_percent <= 100),
    add column hard_bounce_pause_percent numeric(6, 3) not null default 5
        check (hard_bounce_pause_percent > 0 and hard_bounce_pause_percent <= 100);

-- Which mailbox provider an address belongs to, by its domain: the groups rates are shown for and sends are paced by.
create or replace function mailbox_provider(p_email text) returns text
language sql immutable parallel safe as $$
    select case
        when d in ('gmail.com', 'googlemail.com') then 'gmail'
        when d in ('yahoo.com', 'ymail.com', 'rocketmail.com', 'aol.com', 'aim.com', 'verizon.net', 'att.net',
                   'sbcglobal.net')
             or d like 'yahoo.%' or d like 'aol.%' then 'yahoo'
        when d in ('outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'passport.com')
             or d like 'hotmail.%' or d like 'outlook.%' or d like 'live.%' then 'microsoft'
        else 'other'
    end
    from (select lower(split_part(p_email, '@', 2)) as d) s
$$;

-- The audience leaves out suppressed addresses, whatever list or segment holds them.
create or replace function mailing_audience(p_mailing_id bigint) returns table (contact_id bigint)
language sql stable set search_path from current as $$
    select c.id
    from contacts c
    where c.subscription = 'subscribed'
      and c.id in (
          select lc.contact_id from crm_list_contacts lc
          where lc.list_id = (select m.list_id from mailings m where m.id = p_mailing_id)
          union
          select sm.contact_id from segment_members sm
          where sm.segment_id = (select m.segment_id from mailings m where m.id = p_mailing_id))
      and not exists (
          select 1 from crm_list_contacts lc
          where lc.list_id = any (array(select s.list_id from mailing_suppressions s
                                        where s.mailing_id = p_mailing_id and s.list_id is not null))
            and lc.contact_id = c.id)
      and not exists (
          select 1 from segment_members sm
          where sm.segment_id = any (array(select s.segment_id from mailing_suppressions s
                                           where s.mailing_id = p_mailing_id and s.segment_id is not null))
            and sm.contact_id = c.id)
      and not exists (select 1 from suppressions x where x.email = c.email and x.lifted_at is null)
$$;
