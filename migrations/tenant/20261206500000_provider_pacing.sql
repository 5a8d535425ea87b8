-- Per-provider pacing (issue 30): a send keeps a rate and a connection limit per mailbox provider, so a provider
-- that throttles slows its own recipients only. per_second = 0 means no limit of its own (the send's rate holds).
create table mailbox_provider_pacing (
    provider text primary key check (provider in ('gmail', 'yahoo', 'microsoft', 'other')),
    per_second integer not null check (per_second between 0 and 100000),
    connections integer not null check (connections between 1 and 64)
);
-- Defaults in the range the providers tolerate for a sender with a good reputation; a new domain's warm-up cap
-- keeps the daily volume down on top of this.
insert into mailbox_provider_pacing (provider, per_second, connections) values
    ('gmail', 50, 5),
    ('yahoo', 20, 3),
    ('microsoft', 20, 3),
    ('other', 0, 4);
