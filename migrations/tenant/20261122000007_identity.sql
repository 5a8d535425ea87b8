-- Identity in a client's schema: the client's own users, its roles, which users hold which roles, and the same
-- session, challenge and audit tables the public schema has for universal users.

create table client_users (
    id bigint generated always as identity primary key,
    email text not null unique check (email = lower(btrim(email)) and email like '%_@_%'),
    password_hash text not null,
    first_name text not null default '',
    last_name text not null default '',
    phone text not null default '' check (phone ~ '^([0-9]{10})?$'),
    two_factor_method text not null default 'email' check (two_factor_method in ('none', 'email', 'phone', 'app')),
    totp_secret text,
    totp_pending_secret text,
    totp_last_step bigint not null default 0,
    -- Registration is finished when the e-mail link is followed; an administrator then enables the account.
    email_verified timestamptz,
    enabled boolean not null default false,
    created timestamptz not null default now()
);

-- A named set of page and client permissions.
create table roles (
    id bigint generated always as identity primary key,
    name text not null unique check (length(btrim(name)) between 1 and 100),
    permissions text[] not null default '{}',
    created timestamptz not null default now()
);

-- Roles held in this client, by client users and by universal users granted this client. Universal users live
-- in the public schema, so their ids carry no foreign key here.
create table user_roles (
    user_kind text not null check (user_kind in ('client', 'universal')),
    user_id bigint not null,
    role_id bigint not null references roles (id) on delete cascade,
    primary key (user_kind, user_id, role_id)
);

create table auth_sessions (
    id bigint generated always as identity primary key,
    user_id bigint not null references client_users (id) on delete cascade,
    client_id bigint,
    token_hash bytea not null unique,
    created timestamptz not null default now(),
    last_used timestamptz not null default now(),
    expires timestamptz not null,
    revoked timestamptz
);
create index auth_sessions_user on auth_sessions (user_id) where revoked is null;

create table auth_challenges (
    id bigint generated always as identity primary key,
    user_id bigint not null references client_users (id) on delete cascade,
    purpose text not null check (purpose in ('login', 'verify_email', 'reset_password')),
    secret_hash bytea,
    client_id bigint,
    attempts int not null default 0,
    expires timestamptz not null,
    used timestamptz,
    created timestamptz not null default now()
);
create index auth_challenges_open on auth_challenges (user_id, purpose) where used is null;

-- Sign-ins to this client and changes to its users, roles and permissions.
create table audit_events (
    id bigint generated always as identity primary key,
    at timestamptz not null default now(),
    actor_kind text not null check (actor_kind in ('universal', 'client', 'system')),
    actor_id bigint,
    actor_email text not null default '',
    action text not null,
    detail jsonb not null default '{}',
    address text not null default ''
);
create index audit_events_at on audit_events (at desc);
