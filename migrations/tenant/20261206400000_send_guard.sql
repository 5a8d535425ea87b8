-- The send guard (issue 30): a send the guard paused (its complaint or hard-bounce rate over the first delivered
-- copies passed the client's limit) is marked 'tripped'; a person resuming it marks it 'overridden', so the same
-- figures do not pause it again the moment it resumes.
alter table mailings add column guard text check (guard in ('tripped', 'overridden'));
