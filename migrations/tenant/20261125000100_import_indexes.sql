-- The webhook attributes the lines of its own transaction (`imported = now()`): without this index that was a
-- scan of every contribution the client has, twice per webhook call.
create index contributions_imported_idx on contributions (imported);

-- Indexes that another index already serves: every import wrote each of them for nothing.
-- `contributions_paid_at_cover_idx` leads with paid_at; `contacts_created_id_idx` leads with created.
drop index contributions_paid_at_idx;
drop index contacts_created_idx;
drop index dashboard_contacts_created_idx;
