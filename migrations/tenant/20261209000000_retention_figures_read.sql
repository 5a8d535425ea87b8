-- When each computed retention answer was last read, and when a worker last warmed the client's answers: the
-- scheduler computes again the answers people read before they expire (store/src/retention/warm.rs).
alter table retention_figures add column read_at timestamptz;
alter table retention_refreshes add column warmed timestamptz;
