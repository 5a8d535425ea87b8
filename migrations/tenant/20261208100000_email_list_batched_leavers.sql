-- Bounces and complaints arrive by the thousand a second (tests/bench/bounces.sh); each batch of them moves many
-- contacts out of "subscribed" at once. Two things made that cost milliseconds per contact:
--
-- 1. email_list_refresh joined app_settings, a one-row table that is never analysed and so was estimated at 160
--    rows: the update of email_contact_state became a hash join over the whole table (a scan of every contact's
--    state per call) and larger calls crossed jit_above_cost (half a second of JIT compiling for 500 contacts).
--    The time zone is now read once into a variable, and the state rows are reached by their key.
-- 2. The contacts' row trigger refreshed one contact per row. contacts_leave() changes many contacts in one
--    statement and refreshes them once, the row trigger standing aside for that statement only.

create or replace function email_list_refresh(p_ids bigint[]) returns void language plpgsql as $$
declare
    tz text := (select time_zone from app_settings);
begin
    insert into email_contact_state (contact_id)
    select distinct i from unnest(p_ids) i order by 1 on conflict do nothing;
    perform 1 from email_contact_state s where s.contact_id = any(p_ids) order by s.contact_id for update;
    with o as (
        select s.* from email_contact_state s where s.contact_id = any(p_ids)
    ),
    n as (
        select o.contact_id, l.left_day,
               case when c.id is null then '{}'::datemultirange
                    when l.left_day is null then o.engaged
                    else o.engaged - datemultirange(daterange(l.left_day, null)) end as active
        from o left join contacts c on c.id = o.contact_id
        left join lateral (select (coalesce(o.exit_at, c.created) at time zone tz)::date as left_day
                           where c.subscription <> 'subscribed') l on true
    ),
    upd as (
        -- The key condition on s as well, so the rows are found by the primary key whatever n is estimated at.
        update email_contact_state s set left_day = n.left_day, active = n.active
        from n where s.contact_id = any(p_ids) and s.contact_id = n.contact_id
          and (s.left_day is distinct from n.left_day or s.active <> n.active)
    ),
    deltas (day, lft, act) as (
        select left_day, 1, 0 from n where left_day is not null
        union all select left_day, -1, 0 from o where left_day is not null
        union all select lower(r), 0, 1 from n, unnest(n.active) r
        union all select upper(r), 0, -1 from n, unnest(n.active) r
        union all select lower(r), 0, -1 from o, unnest(o.active) r
        union all select upper(r), 0, 1 from o, unnest(o.active) r
    )
    insert into email_list_days as d (day, left_count, active)
    select day, sum(lft), sum(act) from deltas group by day having sum(lft) <> 0 or sum(act) <> 0 order by day
    on conflict (day) do update set left_count = d.left_count + excluded.left_count,
                                   active = d.active + excluded.active;
end
$$;

-- The row trigger stands aside while contacts_leave() runs (it refreshes the whole set itself); every other
-- change of subscription or creation time still refreshes its contact as before.
drop trigger email_list_contacts_update on contacts;
create trigger email_list_contacts_update after update of subscription, created on contacts
    for each row when ((old.subscription is distinct from new.subscription or old.created is distinct from new.created)
                       and current_setting('compass.email_list_refresh', true) is distinct from 'by statement')
    execute function email_list_contacts_update();

-- Moves the given contacts that are still subscribed to the given subscription ('bounced' or 'unsubscribed'), one
-- statement for all of them, and refreshes their email-list contribution once. Returns how many changed. Rows are
-- locked in id order first, so two batches touching the same contacts wait for each other instead of deadlocking.
create function contacts_leave(p_ids bigint[], p_subscriptions text[]) returns bigint language plpgsql as $$
declare
    changed bigint[];
begin
    perform 1 from contacts c where c.id = any(p_ids) and c.subscription = 'subscribed' order by c.id for update;
    perform set_config('compass.email_list_refresh', 'by statement', true);
    with moved as (
        update contacts c set subscription = l.subscription
        from unnest(p_ids, p_subscriptions) l (id, subscription)
        where c.id = any(p_ids) and c.id = l.id and c.subscription = 'subscribed'
        returning c.id
    )
    select array_agg(id order by id) into changed from moved;
    perform set_config('compass.email_list_refresh', '', true);
    if changed is not null then
        perform email_list_refresh(changed);
    end if;
    return coalesce(cardinality(changed), 0);
end
$$;
