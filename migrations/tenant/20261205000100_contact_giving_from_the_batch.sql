-- Bulk writers keep `contact_giving` from the batch's own rows (issue 28). An insert used to recount every
-- contact it touched from all of their gifts, and an insert over more than 20,000 contacts rebuilt the whole
-- table from every gift the client has: an import of 25,000 lines into a client with 3,000,000 gifts read all
-- 3,000,000. A new gift can only add to a contact's counts and move its "latest" values forward, so the insert
-- trigger now merges the batch's per-contact aggregate into the rows in one statement. Updates and deletes (a
-- refund mark, a gift moved or removed) can take a value back, so they still recount the contacts they touch.
--
-- "Latest" is by (paid_at, id), as the recount orders it; the row keeps the key of its most recent counted gift
-- and of the rows its state and ZIP came from, so the merge compares exactly what the recount would.
alter table contact_giving
    add column mrc_at timestamptz,
    add column mrc_id bigint,
    add column state_at timestamptz,
    add column state_id bigint,
    add column zip_at timestamptz,
    add column zip_id bigint;

drop function contact_giving_of(bigint);

-- One contact's row from its gifts (the contributions_counted_contact_idx and contributions_contact_idx indexes).
create function contact_giving_of(p_contact bigint)
returns table (gifts integer, total numeric, first_gift_at timestamptz, last_gift_at timestamptz, hpc numeric,
               mrc numeric, mrc_at timestamptz, mrc_id bigint, last_recurring_at timestamptz,
               state text, state_at timestamptz, state_id bigint, zip text, zip_at timestamptz, zip_id bigint)
language sql stable set search_path from current as $$
    select a.gifts, a.total, a.first_gift_at, a.last_gift_at, a.hpc, m.amount, m.paid_at, m.id,
           a.last_recurring_at, s.state, s.paid_at, s.id, z.zip, z.paid_at, z.id
    from (select count(*)::integer as gifts, coalesce(sum(g.amount), 0) as total, min(g.paid_at) as first_gift_at,
                 max(g.paid_at) as last_gift_at, max(g.amount) as hpc,
                 max(g.paid_at) filter (where g.recurring_months is not null) as last_recurring_at
          from contributions g
          where g.contact_id = p_contact and g.amount > 0 and g.refunded_at is null) a
    left join lateral (
        select m.amount, m.paid_at, m.id from contributions m
        where m.contact_id = p_contact and m.amount > 0 and m.refunded_at is null
        order by m.paid_at desc, m.id desc limit 1) m on true
    left join lateral (
        select s.state, s.paid_at, s.id from contributions s
        where s.contact_id = p_contact and s.state is not null and s.state <> ''
        order by s.paid_at desc, s.id desc limit 1) s on true
    left join lateral (
        select z.zip, z.paid_at, z.id from contributions z
        where z.contact_id = p_contact and z.zip is not null and z.zip <> ''
        order by z.paid_at desc, z.id desc limit 1) z on true
$$;

create or replace function contact_giving_refresh(p_ids bigint[]) returns void
language plpgsql set search_path from current as $$
begin
    insert into contact_giving (contact_id)
    select distinct i from unnest(p_ids) i where i is not null order by 1 on conflict do nothing;
    perform 1 from contact_giving g where g.contact_id = any(p_ids) order by g.contact_id for update;
    update contact_giving cg
    set gifts = coalesce(a.gifts, 0), total = coalesce(a.total, 0), first_gift_at = a.first_gift_at,
        last_gift_at = a.last_gift_at, hpc = a.hpc, mrc = a.mrc, mrc_at = a.mrc_at, mrc_id = a.mrc_id,
        last_recurring_at = a.last_recurring_at, state = a.state, state_at = a.state_at, state_id = a.state_id,
        zip = a.zip, zip_at = a.zip_at, zip_id = a.zip_id
    from (select i.contact_id, x.*
          from (select distinct i as contact_id from unnest(p_ids) i where i is not null) i
          left join lateral (select * from contact_giving_of(i.contact_id)) x on true) a
    where cg.contact_id = a.contact_id;
end
$$;

create or replace function contact_giving_rebuild() returns void
language plpgsql set search_path from current as $$
begin
    lock table contact_giving in exclusive mode;
    delete from contact_giving;
    insert into contact_giving (contact_id, gifts, total, first_gift_at, last_gift_at, hpc, mrc, mrc_at, mrc_id,
                                last_recurring_at, state, state_at, state_id, zip, zip_at, zip_id)
    select a.contact_id, a.gifts, a.total, a.first_gift_at, a.last_gift_at, a.hpc, m.amount, m.paid_at, m.id,
           a.last_recurring_at, s.state, s.paid_at, s.id, z.zip, z.paid_at, z.id
    from (select g.contact_id,
                 count(*) filter (where g.amount > 0 and g.refunded_at is null)::integer as gifts,
                 coalesce(sum(g.amount) filter (where g.amount > 0 and g.refunded_at is null), 0) as total,
                 min(g.paid_at) filter (where g.amount > 0 and g.refunded_at is null) as first_gift_at,
                 max(g.paid_at) filter (where g.amount > 0 and g.refunded_at is null) as last_gift_at,
                 max(g.amount) filter (where g.amount > 0 and g.refunded_at is null) as hpc,
                 max(g.paid_at) filter (where g.amount > 0 and g.refunded_at is null
                                          and g.recurring_months is not null) as last_recurring_at
          from contributions g where g.contact_id is not null group by g.contact_id) a
    left join (select distinct on (g.contact_id) g.contact_id, g.amount, g.paid_at, g.id from contributions g
               where g.contact_id is not null and g.amount > 0 and g.refunded_at is null
               order by g.contact_id, g.paid_at desc, g.id desc) m on m.contact_id = a.contact_id
    left join (select distinct on (g.contact_id) g.contact_id, g.state, g.paid_at, g.id from contributions g
               where g.contact_id is not null and g.state is not null and g.state <> ''
               order by g.contact_id, g.paid_at desc, g.id desc) s on s.contact_id = a.contact_id
    left join (select distinct on (g.contact_id) g.contact_id, g.zip, g.paid_at, g.id from contributions g
               where g.contact_id is not null and g.zip is not null and g.zip <> ''
               order by g.contact_id, g.paid_at desc, g.id desc) z on z.contact_id = a.contact_id;
end
$$;

-- The batch's aggregate per contact, merged into the rows: counts and totals add, first and last move outward,
-- and a "latest" value is replaced only by a later (paid_at, id). Rows are written in contact order, so two
-- writers of the same contacts take their locks in the same order; each merge reads the row as the other left it.
create or replace function contact_giving_inserted() returns trigger
language plpgsql set search_path from current as $$
begin
    insert into contact_giving as g (contact_id, gifts, total, first_gift_at, last_gift_at, hpc, mrc, mrc_at, mrc_id,
                                     last_recurring_at, state, state_at, state_id, zip, zip_at, zip_id)
    select a.contact_id, a.gifts, a.total, a.first_gift_at, a.last_gift_at, a.hpc, m.amount, m.paid_at, m.id,
           a.last_recurring_at, s.state, s.paid_at, s.id, z.zip, z.paid_at, z.id
    from (select n.contact_id,
                 count(*) filter (where n.amount > 0 and n.refunded_at is null)::integer as gifts,
                 coalesce(sum(n.amount) filter (where n.amount > 0 and n.refunded_at is null), 0) as total,
                 min(n.paid_at) filter (where n.amount > 0 and n.refunded_at is null) as first_gift_at,
                 max(n.paid_at) filter (where n.amount > 0 and n.refunded_at is null) as last_gift_at,
                 max(n.amount) filter (where n.amount > 0 and n.refunded_at is null) as hpc,
                 max(n.paid_at) filter (where n.amount > 0 and n.refunded_at is null
                                          and n.recurring_months is not null) as last_recurring_at
          from new_rows n where n.contact_id is not null group by n.contact_id) a
    left join (select distinct on (n.contact_id) n.contact_id, n.amount, n.paid_at, n.id from new_rows n
               where n.contact_id is not null and n.amount > 0 and n.refunded_at is null
               order by n.contact_id, n.paid_at desc, n.id desc) m on m.contact_id = a.contact_id
    left join (select distinct on (n.contact_id) n.contact_id, n.state, n.paid_at, n.id from new_rows n
               where n.contact_id is not null and n.state is not null and n.state <> ''
               order by n.contact_id, n.paid_at desc, n.id desc) s on s.contact_id = a.contact_id
    left join (select distinct on (n.contact_id) n.contact_id, n.zip, n.paid_at, n.id from new_rows n
               where n.contact_id is not null and n.zip is not null and n.zip <> ''
               order by n.contact_id, n.paid_at desc, n.id desc) z on z.contact_id = a.contact_id
    order by a.contact_id
    on conflict (contact_id) do update set
        gifts = g.gifts + excluded.gifts,
        total = g.total + excluded.total,
        first_gift_at = least(g.first_gift_at, excluded.first_gift_at),
        last_gift_at = greatest(g.last_gift_at, excluded.last_gift_at),
        hpc = greatest(g.hpc, excluded.hpc),
        last_recurring_at = greatest(g.last_recurring_at, excluded.last_recurring_at),
        (mrc, mrc_at, mrc_id) = (
            select case when later then excluded.mrc else g.mrc end,
                   case when later then excluded.mrc_at else g.mrc_at end,
                   case when later then excluded.mrc_id else g.mrc_id end
            from (select excluded.mrc_at is not null
                         and (g.mrc_at is null or (excluded.mrc_at, excluded.mrc_id) > (g.mrc_at, g.mrc_id))
                         as later) l),
        (state, state_at, state_id) = (
            select case when later then excluded.state else g.state end,
                   case when later then excluded.state_at else g.state_at end,
                   case when later then excluded.state_id else g.state_id end
            from (select excluded.state_at is not null
                         and (g.state_at is null or (excluded.state_at, excluded.state_id) > (g.state_at, g.state_id))
                         as later) l),
        (zip, zip_at, zip_id) = (
            select case when later then excluded.zip else g.zip end,
                   case when later then excluded.zip_at else g.zip_at end,
                   case when later then excluded.zip_id else g.zip_id end
            from (select excluded.zip_at is not null
                         and (g.zip_at is null or (excluded.zip_at, excluded.zip_id) > (g.zip_at, g.zip_id))
                         as later) l);
    return null;
end
$$;

select contact_giving_rebuild();
