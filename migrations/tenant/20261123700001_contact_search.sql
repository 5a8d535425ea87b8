-- Contact Search at a million contacts. Substring and prefix search on e-mail and name go through trigram
-- indexes (pg_trgm's gin_trgm_ops, from the shared `extensions` schema on the migration's search path); the
-- search's expression for the name is exactly the one the api filters on, so the planner can use the index.
create index contacts_email_trgm_idx on contacts using gin (email gin_trgm_ops);
create index contacts_name_trgm_idx on contacts using gin ((first_name || ' ' || last_name) gin_trgm_ops);
-- Newest first, one page after another: keyset pagination on (created, id).
create index contacts_created_id_idx on contacts (created, id);
