-- A confirmed mailing whose send time has already come wakes the workers' schedulers at once, instead of at
-- their next pass (every few seconds, which still finds the mailings that come due later).
create function mailings_due() returns trigger language plpgsql as $$
begin
    perform pg_notify('compass_mailings_due', '');
    return null;
end $$;
create trigger mailings_due after insert or update of is_draft, send_time, send_attempt on mailings
    for each row when (not new.is_draft and new.send_attempt is null and new.send_time <= now())
    execute function mailings_due();
