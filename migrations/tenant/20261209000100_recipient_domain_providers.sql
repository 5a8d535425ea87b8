-- The mailbox provider of each custom recipient domain, as the send found it from the domain's MX hosts
-- (worker/src/mx.rs): the rates per provider put a Google Workspace or Microsoft 365 domain with its provider,
-- as the send paced it, instead of under "other".
create table recipient_domain_providers (
    domain text primary key,
    provider text not null check (provider in ('gmail', 'yahoo', 'microsoft', 'other')),
    looked_up timestamptz not null default now()
);
