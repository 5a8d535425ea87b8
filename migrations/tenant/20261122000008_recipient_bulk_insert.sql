-- A send writes one recipient row per list member in one statement (100,000 and more). The per-row foreign-key
-- check on mailing_id cost a third of that statement; rows only ever come from a select over `mailings`, so the
-- link is kept whole by a statement-level cascade on delete instead, as for list members (migration 0004).
alter table mailing_recipients drop constraint mailing_recipients_mailing_id_fkey;

create function mailings_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    delete from mailing_recipients r using gone g where r.mailing_id = g.id;
    return null;
end $$;
create trigger mailings_cascade after delete on mailings
    referencing old table as gone for each statement execute function mailings_deleted();
