-- Origin-code value reads the contacts who arrived in a date range.
create index contacts_created_idx on contacts (created);
