-- Sends claim queued recipients in contact order, a thousand at a time: an index of just the queued rows in that
-- order makes each claim a short index scan instead of a sort of everything still queued.
drop index mailing_recipients_queued_idx;
create index mailing_recipients_queued_idx on mailing_recipients (mailing_id, contact_id) where status = 'queued';
