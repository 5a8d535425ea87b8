-- A send now reads recipients in contact order through the primary key and changes only `status` (to `sent`).
-- Without an index on `status`, and with room left in each page, that change is a heap-only update: no index is
-- touched, which halves the database's work per message.
drop index if exists mailing_recipients_queued_idx;
alter table mailing_recipients set (fillfactor = 70);
