-- Spare client schemas: made and migrated ahead of time (by the worker, or `api clients prepare-spares`), so that
-- creating a client renames one instead of running every tenant migration while the operator waits. Beside a
-- thousand schemas, a new schema's migrations take about 0.4 s, most of it in `alter table … add column … default`
-- (about 30 ms each there, 1 ms on an empty database); a rename takes milliseconds whatever the catalogue's size.
-- A spare holds no data; one made by another build's migrations is dropped instead of used.
create table spare_schemas (
    schema_name text primary key check (schema_name ~ '^spare_[a-f0-9]{16}$'),
    created timestamptz not null default now()
);
