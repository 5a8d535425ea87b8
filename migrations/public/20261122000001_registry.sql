-- The public schema holds what is shared by all clients: the clients registry and the agency's universal users.
-- Client data never lives here; each client has its own schema (see migrations/tenant).

create table clients (
    id bigint generated always as identity primary key,
    short_name text not null unique check (short_name ~ '^[a-z][a-z0-9_]{1,30}$'),
    name text not null check (length(name) between 1 and 200),
    -- Derived by the server from short_name, never taken from a request.
    schema_name text not null unique check (schema_name ~ '^[a-z][a-z0-9_]{0,62}$'),
    enabled boolean not null default true,
    created timestamptz not null default now()
);

create table universal_users (
    id bigint generated always as identity primary key,
    email text not null unique check (email = lower(btrim(email)) and email like '%_@_%'),
    password_hash text not null,
    first_name text not null default '',
    last_name text not null default '',
    -- Agency administrators may use every client; others only those granted in universal_user_clients.
    all_clients boolean not null default false,
    -- Page permissions (pageContributions …) and universal permissions ("view user").
    permissions text[] not null default '{}',
    universal_permissions text[] not null default '{}',
    enabled boolean not null default true,
    created timestamptz not null default now()
);

create table universal_user_clients (
    user_id bigint not null references universal_users (id) on delete cascade,
    client_id bigint not null references clients (id) on delete cascade,
    primary key (user_id, client_id)
);
