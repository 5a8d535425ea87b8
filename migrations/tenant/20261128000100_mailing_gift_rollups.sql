-- Gifts and revenue per mailing × variant × segment, which the Performance page (flights) reads beside
-- mailing_rollups. Before, each request looked up every attributed gift's recipient row to find its variant and
-- segment: 25,000 index probes into 10,000,000 recipient rows for a 90-day range (issue 15, p95 251 ms).
--
-- A gift is credited to its giver's recipient row of the mailing (variant, segment); a giver who was not a recipient
-- counts under variant 'a' and the mailing's segment (0: a list). gifts: lines with a positive amount; revenue: their
-- net (a refunded gift counts 0, a refund line takes its amount away), as in README "E-mail performance".
--
-- Kept exact, in the writer's own transaction, by statement-level triggers on what the credit depends on:
-- contributions (a gift added, attributed, refunded or removed), mailing_recipients (a giver's row written after
-- the gift, as a winner send does, or removed) and mailings (a mailing's segment changed). A mailing deleted takes
-- its rows with it; its gifts lose their mailing (on delete set null) and are skipped for want of one.
create table mailing_gift_rollups (
    mailing_id bigint not null references mailings (id) on delete cascade,
    variant text not null,
    segment_id bigint not null,
    gifts bigint not null default 0,
    revenue numeric(20, 2) not null default 0,
    primary key (mailing_id, variant, segment_id)
);

-- The statement adding signed gift lines to the rollup; `source` is a query yielding (sgn, mailing_id, variant,
-- segment_id, amount, refund_id, refunded_at) with the credit already resolved. The caller executes it: transition
-- tables are visible only inside the trigger function.
create function mailing_gift_rollups_sql(source text) returns text language sql immutable as $$
    select format($q$
        insert into mailing_gift_rollups as g (mailing_id, variant, segment_id, gifts, revenue)
        select c.mailing_id, c.variant, c.segment_id,
               coalesce(sum(c.sgn) filter (where c.amount > 0), 0),
               coalesce(sum(c.sgn * case when c.amount > 0
                                          and (c.refund_id is not null or c.refunded_at is not null)
                                         then 0 else c.amount end), 0)
        from (%s) c
        group by 1, 2, 3
        on conflict (mailing_id, variant, segment_id) do update
            set gifts = g.gifts + excluded.gifts, revenue = g.revenue + excluded.revenue
    $q$, source)
$$;

-- Credits contribution rows as the recipient rows stand now; `source` yields (sgn, contributions.*).
create function mailing_gift_credit_sql(source text) returns text language sql immutable as $$
    select mailing_gift_rollups_sql(format($q$
        select c.sgn, c.mailing_id, coalesce(r.variant, 'a') as variant,
               coalesce(r.segment_id, m.segment_id, 0) as segment_id, c.amount, c.refund_id, c.refunded_at
        from (%s) c
        join mailings m on m.id = c.mailing_id
        left join mailing_recipients r on r.mailing_id = c.mailing_id and r.contact_id = c.contact_id
    $q$, source))
$$;

create function mailing_gift_rollups_contributions_inserted() returns trigger
language plpgsql set search_path from current as $$
begin
    execute mailing_gift_credit_sql('select 1 as sgn, * from new_rows where mailing_id is not null');
    return null;
end
$$;

create function mailing_gift_rollups_contributions_updated() returns trigger
language plpgsql set search_path from current as $$
begin
    execute mailing_gift_credit_sql('select -1 as sgn, * from old_rows where mailing_id is not null
                                     union all select 1 as sgn, * from new_rows where mailing_id is not null');
    return null;
end
$$;

create function mailing_gift_rollups_contributions_deleted() returns trigger
language plpgsql set search_path from current as $$
begin
    execute mailing_gift_credit_sql('select -1 as sgn, * from old_rows where mailing_id is not null');
    return null;
end
$$;

create trigger mailing_gift_rollups_contributions_inserted after insert on contributions
    referencing new table as new_rows for each statement execute function mailing_gift_rollups_contributions_inserted();
create trigger mailing_gift_rollups_contributions_updated after update on contributions
    referencing old table as old_rows new table as new_rows
    for each statement execute function mailing_gift_rollups_contributions_updated();
create trigger mailing_gift_rollups_contributions_deleted after delete on contributions
    referencing old table as old_rows for each statement execute function mailing_gift_rollups_contributions_deleted();

-- Recipient rows written, changed or removed: the gifts of the givers among them move from the credit they had
-- (their old row, or none) to the one they have now. A send writes its rows before any gift can follow it, so the
-- gifts looked at are those of the statement's mailings, and usually there are none.
create function mailing_gift_rollups_recipients_sql(before_rows text, after_rows text) returns text
language sql immutable as $$
    select mailing_gift_rollups_sql(format($q$
        with o as materialized (%1$s),
             n as materialized (%2$s),
             c as materialized (
                 select c.mailing_id, c.contact_id, c.amount, c.refund_id, c.refunded_at
                 from contributions c
                 where c.contact_id is not null
                   and c.mailing_id in (select mailing_id from o union select mailing_id from n)),
             moved as (
                 select c.*,
                        coalesce(o.variant, 'a') as v0, coalesce(o.segment_id, m.segment_id, 0) as s0,
                        coalesce(r.variant, 'a') as v1, coalesce(r.segment_id, m.segment_id, 0) as s1
                 from c
                 join mailings m on m.id = c.mailing_id
                 left join o on o.mailing_id = c.mailing_id and o.contact_id = c.contact_id
                 left join mailing_recipients r on r.mailing_id = c.mailing_id and r.contact_id = c.contact_id
                 where (o.mailing_id is not null
                        or exists (select 1 from n where n.mailing_id = c.mailing_id and n.contact_id = c.contact_id)))
        select -1 as sgn, mailing_id, v0 as variant, s0 as segment_id, amount, refund_id, refunded_at
        from moved where (v0, s0) is distinct from (v1, s1)
        union all
        select 1 as sgn, mailing_id, v1 as variant, s1 as segment_id, amount, refund_id, refunded_at
        from moved where (v0, s0) is distinct from (v1, s1)
    $q$, before_rows, after_rows))
$$;

create function mailing_gift_rollups_recipients_changed() returns trigger
language plpgsql set search_path from current as $$
declare
    none constant text := 'select null::bigint as mailing_id, null::bigint as contact_id, null::text as variant,
                                  null::bigint as segment_id where false';
begin
    execute mailing_gift_rollups_recipients_sql(
        case when tg_op = 'INSERT' then none
             else 'select mailing_id, contact_id, variant, segment_id from old_rows' end,
        case when tg_op = 'DELETE' then none
             else 'select mailing_id, contact_id, variant, segment_id from new_rows' end);
    return null;
end
$$;

create trigger mailing_gift_rollups_recipients_inserted after insert on mailing_recipients
    referencing new table as new_rows for each statement execute function mailing_gift_rollups_recipients_changed();
create trigger mailing_gift_rollups_recipients_updated after update on mailing_recipients
    referencing old table as old_rows new table as new_rows
    for each statement execute function mailing_gift_rollups_recipients_changed();
create trigger mailing_gift_rollups_recipients_deleted after delete on mailing_recipients
    referencing old table as old_rows for each statement execute function mailing_gift_rollups_recipients_changed();

-- One mailing's rows recounted from its gifts.
create function mailing_gift_rollups_recount(p_mailing_id bigint) returns void
language plpgsql set search_path from current as $$
begin
    delete from mailing_gift_rollups where mailing_id = p_mailing_id;
    execute mailing_gift_credit_sql(format('select 1 as sgn, * from contributions where mailing_id = %s', p_mailing_id));
end
$$;

-- A mailing's segment is the credit of its givers who were not recipients.
create function mailing_gift_rollups_segment_changed() returns trigger
language plpgsql set search_path from current as $$
begin
    perform mailing_gift_rollups_recount(new.id);
    return null;
end
$$;

create trigger mailing_gift_rollups_segment_changed after update of segment_id on mailings
    for each row when (old.segment_id is distinct from new.segment_id)
    execute function mailing_gift_rollups_segment_changed();

-- The gifts already attributed.
do $$
begin
    execute mailing_gift_credit_sql('select 1 as sgn, * from contributions where mailing_id is not null');
end
$$;
