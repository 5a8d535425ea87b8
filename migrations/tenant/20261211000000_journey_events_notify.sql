-- A statement that leaves journey events (a signup, a list upload, a gift) wakes the workers' journeys at once,
-- instead of at their scheduler's next pass (every few seconds). One notification per statement, naming the
-- client's schema, so a 100,000-row upload is one wake-up and a worker moves only the client that has events.
create function journey_events_notify() returns trigger language plpgsql as $$
begin
    perform pg_notify('compass_journey_events', tg_table_schema);
    return null;
end $$;
create trigger journey_events_notify after insert on journey_events
    for each statement execute function journey_events_notify();
