-- Provider webhooks (issue 30): per client, which relays may report bounces and complaints, and the credentials
-- each one proves itself with. Secrets are never sent back: the Postmark password is kept as an argon2 hash, the
-- Mailgun signing key sealed with the deployment's key; the SendGrid key is public, the SES topics are names.
create table delivery_webhooks (
    provider text primary key check (provider in ('ses', 'sendgrid', 'postmark', 'mailgun')),
    enabled boolean not null default false,
    postmark_username text,
    postmark_password_hash text,
    mailgun_signing_key text,
    -- PEM, or base64 DER as SendGrid's settings page shows it.
    sendgrid_public_key text,
    ses_topic_arns text[] not null default '{}',
    updated_at timestamptz not null default now()
);

-- SNS asks to confirm a subscription once per topic; the System page shows the address to visit.
create table ses_subscriptions (
    topic_arn text primary key,
    subscribe_url text not null,
    received_at timestamptz not null default now(),
    confirmed_at timestamptz
);

-- Mailgun tokens already seen: a token sent again is a replay unless it is the same event sent again.
create table mailgun_tokens (
    token text primary key,
    event_id text not null,
    seen_at timestamptz not null default now()
);
create index mailgun_tokens_seen_idx on mailgun_tokens (seen_at);
