-- A journey's step records keep their links by statement-level deletes instead of foreign keys, as recipients
-- and list members do (migrations 0004 and 0008). The engine writes a thousand step records per statement, and
-- their two per-row foreign-key checks were most of that statement: 23 ms against 4 ms without them per 1,000 rows
-- on a quiet machine, about 50 ms under a send, twice per batch of the 100,000-place benchmark (docs/journeys.md).
--
-- Only the engine writes step records, in the transaction that holds its places (`for update`) and made or
-- locked the step's mailing, so a record never names a missing place or mailing; the deletes below do what the
-- keys' `on delete cascade` and `on delete set null` did.
alter table journey_step_sends drop constraint journey_step_sends_journey_contact_id_fkey;
alter table journey_step_sends drop constraint journey_step_sends_mailing_id_fkey;

create function journey_contacts_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    delete from journey_step_sends s using gone g where s.journey_contact_id = g.id;
    return null;
end $$;
create trigger journey_contacts_cascade after delete on journey_contacts
    referencing old table as gone for each statement execute function journey_contacts_deleted();

create or replace function mailings_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    delete from mailing_recipients r using gone g where r.mailing_id = g.id;
    update contributions c set mailing_id = null from gone g where c.mailing_id = g.id;
    update journey_step_sends s set mailing_id = null from gone g where s.mailing_id = g.id;
    return null;
end $$;
