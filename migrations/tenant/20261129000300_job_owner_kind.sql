-- Who started a job: user ids of universal users (public.universal_users) and of client users (client_users)
-- come from different sequences, so the id alone does not say whose job it is. Rows from before this column
-- have no kind and are shown only to users who see every job.
alter table jobs add column user_kind text check (user_kind in ('universal', 'client'));
create index jobs_owner on jobs (user_kind, user_id, created desc);
