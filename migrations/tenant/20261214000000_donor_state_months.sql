-- The dashboard's "by state" tile: each donor's net and gifts per client month and donor state, so the tile reads
-- a month's few thousand rows instead of the month's gifts (docs/dashboard.md). Kept like donor_months: by
-- statement-level triggers on contributions in the writing statement's transaction, recounted on a change of zone.
-- A state is the platform's two-letter code, trimmed and upper-cased; lines with anything else have no state.
create table donor_state_months (
    month date not null,
    state text not null,
    -- The revenue donor key: the contact id, else 'e:' || e-mail (as donor_months and donor_firsts).
    donor text not null,
    -- Net as docs/metrics.md defines it.
    net numeric(20, 2) not null default 0,
    -- Positive lines, refunded included: a donor of the state in the month is a row with gifts > 0.
    gifts integer not null default 0,
    -- Included so that the tile is an index-only scan of one month.
    primary key (month, state, donor) include (net, gifts)
);

-- The statement adding a set of contribution rows, each signed (`source` yields (sgn, contributions.*)).
create function donor_state_months_sql(source text) returns text language sql immutable as $$
    select format($q$
        insert into donor_state_months as d (month, state, donor, net, gifts)
        select date_trunc('month', c.paid_at at time zone s.time_zone)::date, upper(btrim(c.state)),
               coalesce(c.contact_id::text, 'e:' || c.email),
               coalesce(sum(c.sgn * case when c.amount > 0
                                          and (c.refund_id is not null or c.refunded_at is not null)
                                         then 0 else c.amount end), 0),
               coalesce(sum(c.sgn) filter (where c.amount > 0), 0)
        from (%s) c cross join app_settings s
        where (c.contact_id is not null or c.email is not null) and c.state ~ '^\s*[A-Za-z]{2}\s*$'
        group by 1, 2, 3
        on conflict (month, state, donor) do update set net = d.net + excluded.net, gifts = d.gifts + excluded.gifts
    $q$, source)
$$;

create function donor_state_months_insert() returns trigger language plpgsql as $$
begin
    execute donor_state_months_sql('select 1 as sgn, * from new_rows');
    return null;
end
$$;

create function donor_state_months_update() returns trigger language plpgsql as $$
begin
    -- Most updates (a refund marked, a contact linked) touch neither the state, the day, the donor nor the amount.
    if exists (select 1 from old_rows o join new_rows n on n.id = o.id
               where (o.state, o.paid_at, o.contact_id, o.email, o.amount, o.refund_id, o.refunded_at)
                     is distinct from (n.state, n.paid_at, n.contact_id, n.email, n.amount, n.refund_id, n.refunded_at))
       or (select count(*) from old_rows) <> (select count(*) from new_rows) then
        execute donor_state_months_sql('select -1 as sgn, * from old_rows union all select 1 as sgn, * from new_rows');
        delete from donor_state_months d
        using (select distinct date_trunc('month', o.paid_at at time zone s.time_zone)::date as month,
                               coalesce(o.contact_id::text, 'e:' || o.email) as donor
               from old_rows o cross join app_settings s) o
        where d.month = o.month and d.donor = o.donor and d.gifts = 0 and d.net = 0;
    end if;
    return null;
end
$$;

create function donor_state_months_delete() returns trigger language plpgsql as $$
begin
    execute donor_state_months_sql('select -1 as sgn, * from old_rows');
    delete from donor_state_months d
    using (select distinct date_trunc('month', o.paid_at at time zone s.time_zone)::date as month,
                           coalesce(o.contact_id::text, 'e:' || o.email) as donor
           from old_rows o cross join app_settings s) o
    where d.month = o.month and d.donor = o.donor and d.gifts = 0 and d.net = 0;
    return null;
end
$$;

create trigger donor_state_months_insert after insert on contributions
    referencing new table as new_rows for each statement execute function donor_state_months_insert();
create trigger donor_state_months_update after update on contributions
    referencing old table as old_rows new table as new_rows
    for each statement execute function donor_state_months_update();
create trigger donor_state_months_delete after delete on contributions
    referencing old table as old_rows for each statement execute function donor_state_months_delete();

create function rebuild_donor_state_months() returns void language plpgsql as $$
begin
    delete from donor_state_months;
    execute donor_state_months_sql('select 1 as sgn, * from contributions');
end
$$;

create function donor_state_months_zone_changed() returns trigger language plpgsql as $$
begin
    perform rebuild_donor_state_months();
    return null;
end
$$;

create trigger donor_state_months_zone_changed after update of time_zone on app_settings
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function donor_state_months_zone_changed();

-- The donors of a month (the dashboard) or of whole months (the contributions summary) read one month's
-- donor_months rows with a gift: index-only.
create index donor_months_month_idx on donor_months (month) include (gifts, donor);

select rebuild_donor_state_months();
