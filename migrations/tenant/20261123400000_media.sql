-- Media: ad campaigns › ad groups › ads with their daily delivery, imported from Meta Ads Manager and Google Ads
-- exports. A day's row is keyed by (platform, ad, day): a re-import replaces it, never adds to it.

create table ad_campaigns (
    id bigint generated always as identity primary key,
    platform text not null check (platform in ('meta', 'google', 'other')),
    -- The platform's campaign id when the export has one, else the campaign's name.
    campaign_key text not null,
    name text not null,
    created timestamptz not null default now(),
    unique (platform, campaign_key)
);

create table ad_groups (
    id bigint generated always as identity primary key,
    campaign_id bigint not null references ad_campaigns (id) on delete cascade,
    group_key text not null,
    name text not null,
    created timestamptz not null default now(),
    unique (campaign_id, group_key)
);

create table ads (
    id bigint generated always as identity primary key,
    group_id bigint not null references ad_groups (id) on delete cascade,
    platform text not null check (platform in ('meta', 'google', 'other')),
    -- The platform's ad id when the export has one, else campaign, group and ad name joined.
    ad_key text not null,
    name text not null,
    created timestamptz not null default now(),
    unique (platform, ad_key)
);
create index ads_group_idx on ads (group_id);

-- One row per ad and day (the client's calendar day as the platform reports it).
create table ad_days (
    ad_id bigint not null references ads (id) on delete cascade,
    day date not null,
    spend numeric(14, 2) not null default 0 check (spend >= 0),
    impressions bigint not null default 0 check (impressions >= 0),
    clicks bigint not null default 0 check (clicks >= 0),
    conversions numeric(14, 2) not null default 0 check (conversions >= 0),
    imported timestamptz not null default now(),
    primary key (ad_id, day)
);
create index ad_days_day_idx on ad_days (day);

-- What ties an ad to money: the refcodes of its donation links. A refcode belongs to at most one ad, so a gift
-- is never credited twice.
create table ad_refcodes (
    refcode text primary key check (refcode ~ '^[A-Za-z0-9_-]{1,200}$'),
    ad_id bigint not null references ads (id) on delete cascade
);
create index ad_refcodes_ad_idx on ad_refcodes (ad_id);

-- What ties an ad to people: the origin codes of its sign-up forms. An origin code belongs to at most one ad.
create table ad_origin_codes (
    origin_code_id bigint primary key references origin_codes (id) on delete cascade,
    ad_id bigint not null references ads (id) on delete cascade
);
create index ad_origin_codes_ad_idx on ad_origin_codes (ad_id);

-- Projections: the user's monthly goals and the events that bend the curve.
create table projection_goals (
    year integer not null check (year between 2000 and 2200),
    month smallint not null check (month between 1 and 12),
    amount numeric(14, 2) not null check (amount >= 0),
    primary key (year, month)
);

create table inflection_events (
    id bigint generated always as identity primary key,
    day date not null,
    label text not null check (length(btrim(label)) between 1 and 200),
    kind text not null default 'event' check (kind in ('event', 'election')),
    created timestamptz not null default now()
);
create index inflection_events_day_idx on inflection_events (day);
