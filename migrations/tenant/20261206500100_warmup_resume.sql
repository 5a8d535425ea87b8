-- A send held by its sender domain's warm-up cap goes on by itself when the next day starts (issue 30).
alter table mailings add column resume_at timestamptz;
create index mailings_resume_at_idx on mailings (resume_at) where resume_at is not null;
