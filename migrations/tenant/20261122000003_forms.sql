-- Lead-capture forms and the signups they bring.
create table forms (
    id bigint generated always as identity primary key,
    name text not null default '',
    origin_code_id bigint references origin_codes (id) on delete set null,
    redirect_url text check (redirect_url is null or redirect_url ~* '^https?://'),
    body_html text not null default '',
    enabled boolean not null default true,
    -- Views arrive in bursts; the api adds them up in memory and writes the sums here.
    view_count bigint not null default 0,
    created timestamptz not null default now(),
    updated timestamptz not null default now()
);

create table external_signups (
    id bigint generated always as identity primary key,
    form_id bigint references forms (id) on delete set null,
    contact_id bigint not null references contacts (id) on delete cascade,
    origin_code_id bigint references origin_codes (id) on delete set null,
    email text not null,
    referrer text,
    created timestamptz not null default now()
);
create index external_signups_form_idx on external_signups (form_id, created desc);
