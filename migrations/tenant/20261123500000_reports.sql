-- Reports: files built by jobs, and reports e-mailed on a schedule.

-- A report file built by a "Build Report" job (one per job: a redelivered job finds its file already there).
create table report_files (
    id bigint generated always as identity primary key,
    job_id bigint unique,
    kind text not null,
    format text not null check (format in ('csv', 'xlsx')),
    from_date date not null,
    to_date date not null,
    file_name text not null,
    rows bigint not null,
    content bytea not null,
    created timestamptz not null default now()
);

-- A report e-mailed weekly or monthly; each run covers the last whole week (Monday to Sunday) or calendar month
-- in the client's time zone.
create table report_schedules (
    id bigint generated always as identity primary key,
    kind text not null,
    format text not null check (format in ('csv', 'xlsx')),
    frequency text not null check (frequency in ('weekly', 'monthly')),
    recipients text[] not null check (cardinality(recipients) between 1 and 50),
    next_run timestamptz not null,
    last_run timestamptz,
    created_by bigint,
    created timestamptz not null default now()
);
create index report_schedules_next_run_idx on report_schedules (next_run);

-- Who has had which run: a redelivered job mails only those still missing.
create table report_deliveries (
    schedule_id bigint not null references report_schedules (id) on delete cascade,
    period_from date not null,
    recipient text not null,
    sent timestamptz not null default now(),
    primary key (schedule_id, period_from, recipient)
);

-- The period a run on p_today covers: the last whole week (Monday–Sunday) or the last calendar month.
create function report_period(p_frequency text, p_today date, out period_from date, out period_to date)
language sql immutable as $$
    select case when p_frequency = 'weekly' then date_trunc('week', p_today)::date - 7
                else (date_trunc('month', p_today) - interval '1 month')::date end,
           case when p_frequency = 'weekly' then date_trunc('week', p_today)::date - 1
                else date_trunc('month', p_today)::date - 1 end
$$;

-- The next run after p_today: next Monday or the first of next month, 07:00 in the client's zone.
create function report_next_run(p_frequency text, p_today date) returns timestamptz
language sql stable set search_path from current as $$
    select (case when p_frequency = 'weekly' then date_trunc('week', p_today)::date + 7
                 else (date_trunc('month', p_today) + interval '1 month')::date end
            + time '07:00') at time zone s.time_zone
    from app_settings s limit 1
$$;

-- The dashboard: contacts joined and unsubscribes in the last 30 days stay on an index.
create index dashboard_contacts_created_idx on contacts (created);
create index dashboard_unsubscribes_idx on mailing_events (created) where kind = 'unsubscribe';
