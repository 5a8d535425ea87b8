-- Refresh-token reuse detection. A session's refresh token is spent when it is rotated (or when a client login
-- replaces the session); presenting a spent token again means a copy of it exists outside the browser that spent
-- it, so every session of its family ends. A family is a session and the sessions that replaced it by client
-- login: `family` names the first (null: the session is its own family's first).
alter table auth_sessions add column family bigint;
create index auth_sessions_family on auth_sessions (family) where revoked is null;

create table auth_spent_refresh_tokens (
    token_hash bytea primary key,
    family bigint not null,
    spent timestamptz not null default now()
);
-- Spent tokens are kept as long as the session they belonged to could have lived, then pruned.
create index auth_spent_refresh_tokens_spent on auth_spent_refresh_tokens (spent);
