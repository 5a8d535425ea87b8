-- Issue 27, item 2: Contact Origin Codes dates a contact's acquisition by its earliest known moment, its first signup among
-- them: one probe per contact.
create index external_signups_contact_idx on external_signups (contact_id, created);
