-- Identity: two-factor sign-in, sessions with rotating refresh tokens, one-time challenges and an audit trail for
-- universal users. Client users have the same tables in their client's schema (tenant migration "identity").

alter table universal_users
    add column phone text not null default '' check (phone ~ '^([0-9]{10})?$'),
    -- 'none' exists for accounts an operator creates from the command line; everyone else picks a method.
    add column two_factor_method text not null default 'none'
        check (two_factor_method in ('none', 'email', 'phone', 'app')),
    -- Base32 authenticator secret, set once enrolment is confirmed with a valid code.
    add column totp_secret text,
    -- The secret shown during enrolment, before it is confirmed.
    add column totp_pending_secret text,
    -- The last authenticator time step accepted, so a code is never accepted twice.
    add column totp_last_step bigint not null default 0;

-- One row per signed-in browser. The refresh token is stored only as its SHA-256; every refresh replaces it.
-- Access tokens name their session, so revoking the session ends them too.
create table auth_sessions (
    id bigint generated always as identity primary key,
    user_id bigint not null references universal_users (id) on delete cascade,
    -- The client a universal user chose (null before the client login).
    client_id bigint references clients (id) on delete cascade,
    token_hash bytea not null unique,
    created timestamptz not null default now(),
    last_used timestamptz not null default now(),
    expires timestamptz not null,
    revoked timestamptz
);
create index auth_sessions_user on auth_sessions (user_id) where revoked is null;

-- Login codes, e-mail verification and password-reset links. Secrets are stored as keyed hashes only.
create table auth_challenges (
    id bigint generated always as identity primary key,
    user_id bigint not null references universal_users (id) on delete cascade,
    purpose text not null check (purpose in ('login', 'verify_email', 'reset_password')),
    -- Null for a login with an authenticator app: the code comes from the app, not from us.
    secret_hash bytea,
    -- Login challenges: the client named at step 1 (client-auth mode and client-connection logins).
    client_id bigint references clients (id) on delete cascade,
    attempts int not null default 0,
    expires timestamptz not null,
    used timestamptz,
    created timestamptz not null default now()
);
create index auth_challenges_open on auth_challenges (user_id, purpose) where used is null;

-- Sign-ins and changes to universal users' access.
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
