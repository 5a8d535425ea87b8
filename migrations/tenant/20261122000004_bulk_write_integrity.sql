-- Imports write a million memberships and contacts in one statement. Per-row foreign-key checks cost more than
-- the inserts themselves there, so these links are kept whole by statement-level triggers instead: they run
-- once per deleting statement, set-based, and only when something is deleted.
alter table crm_list_members drop constraint crm_list_members_list_id_fkey;
alter table crm_list_members drop constraint crm_list_members_contact_id_fkey;
alter table contacts drop constraint contacts_origin_code_id_fkey;

-- Most contacts have no VANID: index only those that do.
alter table contacts drop constraint contacts_vanid_key;
create unique index contacts_vanid_key on contacts (vanid) where vanid is not null;

create function crm_lists_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    delete from crm_list_members m using gone g where m.list_id = g.id;
    return null;
end $$;
create trigger crm_lists_cascade after delete on crm_lists
    referencing old table as gone for each statement execute function crm_lists_deleted();

create function contacts_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    delete from crm_list_members m using gone g where m.contact_id = g.id;
    return null;
end $$;
create trigger contacts_cascade after delete on contacts
    referencing old table as gone for each statement execute function contacts_deleted();

create function origin_codes_deleted() returns trigger language plpgsql set search_path from current as $$
begin
    update contacts c set origin_code_id = null from gone g where c.origin_code_id = g.id;
    return null;
end $$;
create trigger origin_codes_set_null after delete on origin_codes
    referencing old table as gone for each statement execute function origin_codes_deleted();
