-- Uploaded files live in the client's schema (not on the api's disk) so a worker on any host can read them.
-- They are split into chunks so neither the api nor the worker ever holds a whole file in memory.
create table uploads (
    id bigint generated always as identity primary key,
    filename text not null,
    size bigint not null default 0,
    created timestamptz not null default now()
);

create table upload_chunks (
    upload_id bigint not null references uploads (id) on delete cascade,
    seq integer not null,
    data bytea not null,
    primary key (upload_id, seq)
);
