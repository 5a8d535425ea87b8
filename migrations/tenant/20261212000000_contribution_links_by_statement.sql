-- A gift's links to its contact, source code and mailing are kept whole by statement-level triggers instead of
-- foreign keys (issue 28), as list members' and recipients' already are (migrations 0004 and 0008). An import writes
-- a million lines in one statement, and the per-row foreign-key checks (one locking lookup per line and link) took
-- 9 of its 20 seconds before indexes and rollups. A statement now checks and locks each distinct contact, code and
-- mailing it names once, in key order, and a delete of any of them clears the link in the deleting statement.
--
-- The rules are the foreign keys' own: a link must name an existing row, the linked row cannot be deleted while
-- the writer's transaction is open (`for key share`, as the foreign key takes), and a delete sets the link to null.
-- A violation raises the foreign key's SQLSTATE and names the constraint it replaces.
alter table contributions drop constraint contributions_contact_id_fkey;
alter table contributions drop constraint contributions_source_code_id_fkey;
alter table contributions drop constraint contributions_mailing_id_fkey;

-- The query finding the first key of `link` in `source` (a query over a statement's rows) absent from `target`,
-- locking each present one. The trigger executes it: transition tables are visible only in the trigger's function.
create function contribution_link_sql(link text, target text, source text) returns text
language sql immutable as $$
    select format($q$
        with wanted as (select distinct s.%1$I as id from (%3$s) s where s.%1$I is not null),
             held as (select t.id from %2$I t where t.id in (select id from wanted) order by t.id for key share of t)
        select w.id from wanted w where not exists (select 1 from held h where h.id = w.id) limit 1
    $q$, link, target, source)
$$;

-- Raises the foreign-key violation for `missing`, a key of `link` absent from `target` (nothing when null).
create function contribution_link_missing(link text, target text, missing bigint) returns void
language plpgsql as $$
begin
    if missing is not null then
        raise exception 'insert or update on table "contributions" violates foreign key constraint "contributions_%_fkey"',
                        link
            using errcode = 'foreign_key_violation',
                  detail = format('Key (%s)=(%s) is not present in table "%s".', link, missing, target),
                  constraint = format('contributions_%s_fkey', link);
    end if;
end
$$;

create function contribution_links_inserted() returns trigger
language plpgsql set search_path from current as $$
declare
    missing bigint;
begin
    execute contribution_link_sql('contact_id', 'contacts', 'select contact_id from new_rows') into missing;
    perform contribution_link_missing('contact_id', 'contacts', missing);
    execute contribution_link_sql('source_code_id', 'source_codes', 'select source_code_id from new_rows')
        into missing;
    perform contribution_link_missing('source_code_id', 'source_codes', missing);
    execute contribution_link_sql('mailing_id', 'mailings', 'select mailing_id from new_rows') into missing;
    perform contribution_link_missing('mailing_id', 'mailings', missing);
    return null;
end
$$;

-- Only links an update changed are checked: a refund mark or a link cleared needs nothing. (A statement trigger
-- with transition tables cannot name columns, so every update comes here and most find nothing to check.)
create function contribution_links_updated() returns trigger
language plpgsql set search_path from current as $$
declare
    missing bigint;
    changed constant text := 'select nullif(n.contact_id, o.contact_id) as contact_id,
                                     nullif(n.source_code_id, o.source_code_id) as source_code_id,
                                     nullif(n.mailing_id, o.mailing_id) as mailing_id
                              from new_rows n join old_rows o on o.id = n.id';
begin
    execute contribution_link_sql('contact_id', 'contacts', changed) into missing;
    perform contribution_link_missing('contact_id', 'contacts', missing);
    execute contribution_link_sql('source_code_id', 'source_codes', changed) into missing;
    perform contribution_link_missing('source_code_id', 'source_codes', missing);
    execute contribution_link_sql('mailing_id', 'mailings', changed) into missing;
    perform contribution_link_missing('mailing_id', 'mailings', missing);
    return null;
end
$$;

create trigger contribution_links_inserted after insert on contributions
    referencing new table as new_rows for each statement execute function contribution_links_inserted();
create trigger contribution_links_updated after update on contributions
    referencing old table as old_rows new table as new_rows
    for each statement execute function contribution_links_updated();

-- The deleting side: what `on delete set null` did.
create or replace function contacts_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    delete from crm_list_members m using gone g where m.contact_id = g.id;
    update contributions c set contact_id = null from gone g where c.contact_id = g.id;
    return null;
end $$;

create or replace function mailings_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    delete from mailing_recipients r using gone g where r.mailing_id = g.id;
    update contributions c set mailing_id = null from gone g where c.mailing_id = g.id;
    return null;
end $$;

create function source_codes_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    update contributions c set source_code_id = null from gone g where c.source_code_id = g.id;
    return null;
end $$;
create trigger source_codes_cascade after delete on source_codes
    referencing old table as gone for each statement execute function source_codes_deleted();
