-- Written events: one statement trigger counts them into `mailing_rollups` and then marks their recipients.
--
-- A person's first human open (or click) of a mailing is counted once, on its day. Until now each new event asked
-- "is my id the smallest of this person's opens?" with a subquery per event. Which index answers that is the
-- planner's guess, and on a table whose statistics are stale (a client's first large import of events, the demo
-- seed) it guessed the mailing's whole list of opens: every event then scanned every other, and 100,000 events
-- took over 20 minutes. The recipient row already records whether the person opened or clicked (the flags this
-- trigger keeps), so the question is answered by the row the rollup joins anyway: the event is a first when the
-- flag is still false before this statement marks it, and it is the earliest such event of the statement. Events
-- of a person who is not a recipient (none are written today) still look for an earlier event.
create function mailing_events_inserted() returns trigger
language plpgsql set search_path from current as $$
begin
    -- Two writers of the same mailing's events count "first" one after the other: the second statement's flags
    -- are read after the first one committed them.
    perform pg_advisory_xact_lock(7215, (x.mailing_id % 2147483647)::int)
    from (select distinct mailing_id from new_rows order by 1) x;
    insert into mailing_rollups as r (mailing_id, variant, segment_id, day, human_opens, machine_opens, clickers,
                                      clicks, unsubscribes)
    select n.mailing_id, coalesce(n.variant, 'a'), coalesce(n.segment_id, 0), client_day(n.created),
           count(*) filter (where n.kind = 'open' and not n.machine and n.first_here and not n.opened_before),
           count(*) filter (where n.kind = 'open' and n.machine),
           count(*) filter (where n.kind = 'click' and not n.machine and n.first_here and not n.clicked_before),
           count(*) filter (where n.kind = 'click' and not n.machine),
           count(*) filter (where n.kind = 'unsubscribe')
    from (select e.mailing_id, e.kind, e.machine, e.created, rc.variant, rc.segment_id,
                 e.id = min(e.id) over (partition by e.mailing_id, e.contact_id, e.kind, e.machine) as first_here,
                 case when rc.mailing_id is not null then rc.human_open
                      else exists (select 1 from mailing_events p
                                   where p.mailing_id = e.mailing_id and p.contact_id = e.contact_id
                                     and p.kind = 'open' and not p.machine and p.id < e.id) end as opened_before,
                 case when rc.mailing_id is not null then rc.human_click
                      else exists (select 1 from mailing_events p
                                   where p.mailing_id = e.mailing_id and p.contact_id = e.contact_id
                                     and p.kind = 'click' and not p.machine and p.id < e.id) end as clicked_before
          from new_rows e
          left join mailing_recipients rc on rc.mailing_id = e.mailing_id and rc.contact_id = e.contact_id
          where exists (select 1 from mailings m where m.id = e.mailing_id)) n
    group by 1, 2, 3, 4
    on conflict (mailing_id, variant, segment_id, day) do update
        set human_opens = r.human_opens + excluded.human_opens,
            machine_opens = r.machine_opens + excluded.machine_opens,
            clickers = r.clickers + excluded.clickers,
            clicks = r.clicks + excluded.clicks,
            unsubscribes = r.unsubscribes + excluded.unsubscribes;

    update mailing_recipients r
    set human_open = r.human_open or e.opened,
        human_click = r.human_click or e.clicked,
        unsubscribed = r.unsubscribed or e.unsub
    from (select mailing_id, contact_id,
                 bool_or(kind = 'open' and not machine) as opened,
                 bool_or(kind = 'click' and not machine) as clicked,
                 bool_or(kind = 'unsubscribe') as unsub
          from new_rows group by 1, 2) e
    where r.mailing_id = e.mailing_id and r.contact_id = e.contact_id
      and ((e.opened and not r.human_open) or (e.clicked and not r.human_click)
           or (e.unsub and not r.unsubscribed));
    return null;
end $$;

drop trigger mailing_events_rollup_insert on mailing_events;
drop trigger mailing_events_mark_recipients on mailing_events;
drop function mailing_rollups_events_inserted();
drop function mailing_events_mark_recipients();
create trigger mailing_events_inserted after insert on mailing_events
    referencing new table as new_rows for each statement execute function mailing_events_inserted();
