-- Revenue rollups: the summary and the daily series read whole days from here instead of scanning facts.
-- Kept by statement-level triggers on contributions, so every import (set-based, one transaction) keeps them
-- exact in its own transaction without knowing they exist.

-- Per client day (in app_settings.time_zone) and source code (0 = none). Figures follow the README metrics.
create table contribution_days (
    day date not null,
    source_code_id bigint not null default 0,
    gifts bigint not null default 0,
    gross numeric(20, 2) not null default 0,
    refunded_gifts bigint not null default 0,
    refunds numeric(20, 2) not null default 0,
    net numeric(20, 2) not null default 0,
    fees numeric(20, 2) not null default 0,
    recurring_gross numeric(20, 2) not null default 0,
    primary key (day, source_code_id)
);

-- Each donor's first positive gift ever; the donor key is the README's (contact id, else 'e:' || e-mail).
create table donor_firsts (
    donor text primary key,
    first_paid_at timestamptz not null
);
create index donor_firsts_first_idx on donor_firsts (first_paid_at);

-- Recounting an e-mail donor's first gift stays on an index.
create index contributions_email_idx on contributions (email, paid_at) where contact_id is null;
-- Distinct donors, the median and the source-code table of a range read the index alone.
create index contributions_paid_at_cover_idx on contributions (paid_at)
    include (amount, contact_id, email, source_code_id, refund_id, refunded_at);

-- The statement adding a set of contribution rows to the day rollup, each signed (+1 adds it, -1 takes it
-- away); `source` is a query yielding (sgn, contributions.*). The caller executes it itself: transition tables
-- are visible only inside the trigger function.
create function revenue_day_sql(source text) returns text language sql immutable as $$
    select format($q$
        insert into contribution_days as d
            (day, source_code_id, gifts, gross, refunded_gifts, refunds, net, fees, recurring_gross)
        select (c.paid_at at time zone s.time_zone)::date, coalesce(c.source_code_id, 0),
               coalesce(sum(c.sgn) filter (where c.amount > 0), 0),
               coalesce(sum(c.sgn * c.amount) filter (where c.amount > 0), 0),
               coalesce(sum(c.sgn) filter (where c.amount > 0
                                             and (c.refund_id is not null or c.refunded_at is not null)), 0),
               coalesce(sum(c.sgn * c.amount) filter (where c.amount > 0
                                  and (c.refund_id is not null or c.refunded_at is not null)), 0)
                 + coalesce(sum(-c.sgn * c.amount) filter (where c.amount < 0), 0),
               coalesce(sum(c.sgn * case when c.amount > 0
                                          and (c.refund_id is not null or c.refunded_at is not null)
                                         then 0 else c.amount end), 0),
               coalesce(sum(c.sgn * c.fee), 0),
               coalesce(sum(c.sgn * c.amount) filter (where c.amount > 0 and c.recurring_months is not null), 0)
        from (%s) c cross join app_settings s
        group by 1, 2
        on conflict (day, source_code_id) do update set
            gifts = d.gifts + excluded.gifts, gross = d.gross + excluded.gross,
            refunded_gifts = d.refunded_gifts + excluded.refunded_gifts, refunds = d.refunds + excluded.refunds,
            net = d.net + excluded.net, fees = d.fees + excluded.fees,
            recurring_gross = d.recurring_gross + excluded.recurring_gross
    $q$, source)
$$;

-- Recounts the first gift of the given donors from the facts (both kinds of key stay on an index).
create function revenue_recount_donors(contact_ids bigint[], emails text[]) returns void
language sql as $$
    delete from donor_firsts
    where donor = any (array(select i::text from unnest(contact_ids) i))
       or donor = any (array(select 'e:' || e from unnest(emails) e));
    insert into donor_firsts (donor, first_paid_at)
    select coalesce(c.contact_id::text, 'e:' || c.email), min(c.paid_at)
    from contributions c
    where c.amount > 0
      and (c.contact_id = any (contact_ids) or (c.contact_id is null and c.email = any (emails)))
    group by 1;
$$;

create function contributions_rollup_insert() returns trigger language plpgsql as $$
begin
    execute revenue_day_sql('select 1 as sgn, * from new_rows');
    -- A new gift can only make a first gift earlier.
    insert into donor_firsts as f (donor, first_paid_at)
    select coalesce(n.contact_id::text, 'e:' || n.email), min(n.paid_at)
    from new_rows n
    where n.amount > 0 and (n.contact_id is not null or n.email is not null)
    group by 1
    on conflict (donor) do update set first_paid_at = least(f.first_paid_at, excluded.first_paid_at);
    return null;
end
$$;

create function contributions_rollup_update() returns trigger language plpgsql as $$
declare
    ids bigint[];
    mails text[];
begin
    execute revenue_day_sql('select -1 as sgn, * from old_rows union all select 1 as sgn, * from new_rows');
    -- Refund marks leave first gifts alone; only rows whose donor, time or sign moved are recounted.
    select array_agg(distinct x.contact_id) filter (where x.contact_id is not null),
           array_agg(distinct x.email) filter (where x.contact_id is null and x.email is not null)
      into ids, mails
    from old_rows o join new_rows n on n.id = o.id
    cross join lateral (values (o.contact_id, o.email), (n.contact_id, n.email)) x (contact_id, email)
    where (o.contact_id, o.email, o.paid_at, o.amount > 0)
          is distinct from (n.contact_id, n.email, n.paid_at, n.amount > 0);
    if ids is not null or mails is not null then
        perform revenue_recount_donors(coalesce(ids, '{}'), coalesce(mails, '{}'));
    end if;
    return null;
end
$$;

create function contributions_rollup_delete() returns trigger language plpgsql as $$
declare
    ids bigint[];
    mails text[];
begin
    execute revenue_day_sql('select -1 as sgn, * from old_rows');
    select array_agg(distinct o.contact_id) filter (where o.contact_id is not null),
           array_agg(distinct o.email) filter (where o.contact_id is null and o.email is not null)
      into ids, mails
    from old_rows o;
    if ids is not null or mails is not null then
        perform revenue_recount_donors(coalesce(ids, '{}'), coalesce(mails, '{}'));
    end if;
    return null;
end
$$;

create trigger contributions_rollup_insert after insert on contributions
    referencing new table as new_rows for each statement execute function contributions_rollup_insert();
create trigger contributions_rollup_update after update on contributions
    referencing old table as old_rows new table as new_rows
    for each statement execute function contributions_rollup_update();
create trigger contributions_rollup_delete after delete on contributions
    referencing old table as old_rows for each statement execute function contributions_rollup_delete();

-- Recounts both rollups from the facts. Days depend on the client's time zone, so a change of zone calls it.
create function rebuild_revenue_rollups() returns void language plpgsql as $$
begin
    delete from contribution_days;
    execute revenue_day_sql('select 1 as sgn, * from contributions');
    delete from donor_firsts;
    insert into donor_firsts (donor, first_paid_at)
    select coalesce(c.contact_id::text, 'e:' || c.email), min(c.paid_at)
    from contributions c
    where c.amount > 0 and (c.contact_id is not null or c.email is not null)
    group by 1;
end
$$;

create function app_settings_time_zone_changed() returns trigger language plpgsql as $$
begin
    perform rebuild_revenue_rollups();
    return null;
end
$$;

create trigger app_settings_time_zone_changed after update of time_zone on app_settings
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function app_settings_time_zone_changed();

select rebuild_revenue_rollups();
