-- External mailings imported from files: their gifts, and the platform's own id when the file has one. A re-import
-- matches a send on (source, id) when it has an id, else on (source, name, send date), and replaces it, never adds.
alter table external_mailings
    add column gifts bigint not null default 0 check (gifts >= 0),
    add column external_id text check (length(external_id) between 1 and 200),
    drop constraint if exists external_mailings_source_name_sent_on_key;
create unique index external_mailings_external_id_key on external_mailings (source, external_id)
    where external_id is not null;
create unique index external_mailings_name_day_key on external_mailings (source, name, sent_on)
    where external_id is null;
