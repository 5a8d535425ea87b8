-- The jobs an idle worker may claim from the database (issue 28): a small index of the queued ones, oldest first.
create index jobs_queued_idx on jobs (id) where status = 'queued';
