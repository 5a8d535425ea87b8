-- The webhook attributes the lines of its own transaction (`imported = now()`): without this index that was a
-- scan of every contribution the client has, twice per webhook call.
create index contributions_imported_idx on contributions (imported);
