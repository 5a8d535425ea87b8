-- Revenue: the money layer every analytics page stands on.
-- Facts never change meaning: one contribution row per platform line item, refunds marked (never deleted).

-- The client's revenue settings (System page). Dates are shown and grouped by day in `time_zone`.
alter table app_settings
    add column time_zone text not null default 'America/New_York',
    add column actblue_origin_code text not null default 'actblue',
    add column winred_origin_code text not null default 'winred',
    -- How the client's reference codes are built; codes that do not fit are kept whole as unparsed.
    add column refcode_pattern text not null default '{channel}_{date:yyyymmdd}_{campaign}_{variant}',
    -- The refcode given to donation links in mailings that carry none.
    add column mailing_refcode_pattern text not null default 'em_{yyyymmdd}_{mailing}_{variant}',
    add column attribution_window_days integer not null default 3
        check (attribution_window_days between 0 and 90),
    -- Donation hosts besides ActBlue's and WinRed's whose links get a refcode.
    add column donation_domains text[] not null default '{}',
    add column fiscal_year_start smallint not null default 1 check (fiscal_year_start between 1 and 12),
    -- ActBlue webhook HTTP Basic credentials, set by an administrator; the password is stored hashed (argon2id).
    add column actblue_webhook_username text,
    add column actblue_webhook_password_hash text;

-- One row per distinct reference code, parsed by the client's pattern.
create table source_codes (
    id bigint generated always as identity primary key,
    code text not null unique,
    parsed boolean not null default false,
    channel text,
    code_date date,
    campaign text,
    variant text,
    -- What the code is tied to, when known.
    mailing_id bigint references mailings (id) on delete set null,
    form_id bigint references forms (id) on delete set null,
    created timestamptz not null default now()
);

create table contributions (
    id bigint generated always as identity primary key,
    platform text not null check (platform in ('actblue', 'winred', 'other')),
    line_item_id text not null,
    receipt_id text,
    paid_at timestamptz not null,
    amount numeric(14, 2) not null,
    fee numeric(14, 2),
    contact_id bigint references contacts (id) on delete set null,
    email text check (email = lower(btrim(email))),
    first_name text,
    last_name text,
    zip text,
    state text,
    phone text,
    -- Null for a one-time gift; the series length (0 = open-ended) for a recurring one.
    recurring_months integer,
    recurrence_number integer,
    refcode text,
    refcode2 text,
    source_code_id bigint references source_codes (id) on delete set null,
    fundraising_page text,
    refund_id text,
    refunded_at timestamptz,
    ab_test_name text,
    ab_variation text,
    mobile boolean,
    express_signup boolean,
    -- Attribution: which mailing the gift is credited to and by which rule.
    mailing_id bigint references mailings (id) on delete set null,
    attribution text not null default 'none' check (attribution in ('refcode', 'click', 'none')),
    imported timestamptz not null default now(),
    unique (platform, line_item_id)
);
create index contributions_paid_at_idx on contributions (paid_at);
create index contributions_contact_idx on contributions (contact_id, paid_at);
create index contributions_source_code_idx on contributions (source_code_id, paid_at);
create index contributions_mailing_idx on contributions (mailing_id) where mailing_id is not null;
