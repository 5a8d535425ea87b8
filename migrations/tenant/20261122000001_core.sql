-- Runs once in every client's schema, with search_path set to that schema only.
-- Tables here are unqualified on purpose: the same statements serve every tenant.

create table app_settings (
    id bigint primary key default 1 check (id = 1),
    media_enabled boolean not null default false,
    updated timestamptz not null default now()
);
insert into app_settings (id) values (1);

-- A job is this row (what the UI polls) plus a message on the Redis queue naming the client and the row.
create table jobs (
    id bigint generated always as identity primary key,
    label text not null,
    command text not null,
    payload jsonb not null default '{}',
    status text not null default 'queued' check (status in ('queued', 'running', 'done')),
    progress smallint not null default 0 check (progress between 0 and 100),
    success boolean,
    is_active boolean not null default true,
    result jsonb,
    error text,
    attempts integer not null default 0,
    user_id bigint,
    created timestamptz not null default now(),
    updated timestamptz not null default now()
);
create index jobs_created_idx on jobs (created desc);

create table origin_codes (
    id bigint generated always as identity primary key,
    name text not null unique check (length(btrim(name)) > 0),
    created timestamptz not null default now()
);

create table contacts (
    id bigint generated always as identity primary key,
    email text not null unique check (email = lower(btrim(email))),
    first_name text not null default '',
    last_name text not null default '',
    phone text,
    vanid bigint unique,
    origin_code_id bigint references origin_codes (id) on delete set null,
    subscription text not null default 'subscribed'
        check (subscription in ('subscribed', 'unsubscribed', 'bounced')),
    created timestamptz not null default now()
);
create index contacts_origin_code_idx on contacts (origin_code_id);

-- A query list's members are the contacts whose origin code is in origin_code_ids;
-- an upload list's members are the rows of crm_list_members.
create table crm_lists (
    id bigint generated always as identity primary key,
    name text not null check (length(btrim(name)) > 0),
    kind text not null default 'query' check (kind in ('query', 'upload')),
    origin_code_ids bigint[] not null default '{}',
    count integer not null default 0,
    created timestamptz not null default now()
);

create table crm_list_members (
    list_id bigint not null references crm_lists (id) on delete cascade,
    contact_id bigint not null references contacts (id) on delete cascade,
    primary key (list_id, contact_id)
);
