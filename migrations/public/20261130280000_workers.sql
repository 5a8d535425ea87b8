-- Worker processes and their liveness (issue 28): each process beats here every second, so the api can tell
-- whether any worker takes jobs, and the System page can list them. Rows of processes gone for a day are deleted.
create table workers (
    name text primary key,
    queue text not null,
    host text not null default '',
    pid integer not null default 0,
    started timestamptz not null default now(),
    beat timestamptz not null default now(),
    -- The last time the process's queue poll ran (its apalis heartbeat).
    polled timestamptz not null default now(),
    -- The jobs it runs now: [{"clientId": …, "jobId": …}].
    running jsonb not null default '[]'
);
create index workers_queue_beat_idx on workers (queue, beat);
