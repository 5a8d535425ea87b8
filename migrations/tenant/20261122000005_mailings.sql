-- The sending side of the CRM: sender identities, templates, mailings and one row per recipient of a send.
create table senders (
    id bigint generated always as identity primary key,
    name text not null check (length(btrim(name)) > 0),
    from_address text not null check (from_address like '%_@_%'),
    reply_to text,
    created timestamptz not null default now()
);

create table mailing_templates (
    id bigint generated always as identity primary key,
    name text not null check (length(btrim(name)) > 0),
    body_html text not null default '',
    created timestamptz not null default now(),
    updated timestamptz not null default now()
);

create table mailings (
    id bigint generated always as identity primary key,
    name text not null,
    subject_line text not null,
    sender_id bigint references senders (id) on delete set null,
    send_time timestamptz,
    list_id bigint references crm_lists (id) on delete set null,
    body_html text not null default '',
    is_draft boolean not null default true,
    -- Set when the scheduler hands the mailing to a worker: from then on it is SENT and read-only.
    send_attempt timestamptz,
    delivery text not null default 'idle' check (delivery in ('idle', 'sending', 'done', 'paused')),
    delivery_message text,
    created timestamptz not null default now(),
    updated timestamptz not null default now()
);
create index mailings_due_idx on mailings (send_time) where not is_draft and send_attempt is null;

-- A recipient's row exists before its message is sent, so a retried or resumed send never mails anyone twice.
create table mailing_recipients (
    mailing_id bigint not null references mailings (id) on delete cascade,
    contact_id bigint not null,
    email text not null,
    first_name text not null default '',
    status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed', 'bounced')),
    error text,
    sent_at timestamptz,
    primary key (mailing_id, contact_id)
);
create index mailing_recipients_queued_idx on mailing_recipients (mailing_id) where status = 'queued';

create table mailing_events (
    id bigint generated always as identity primary key,
    mailing_id bigint not null,
    contact_id bigint not null,
    kind text not null check (kind in ('open', 'click', 'unsubscribe')),
    -- Opens and clicks by privacy proxies and link scanners, told apart from people's.
    machine boolean not null default false,
    url text,
    created timestamptz not null default now()
);
create index mailing_events_mailing_idx on mailing_events (mailing_id, kind);
