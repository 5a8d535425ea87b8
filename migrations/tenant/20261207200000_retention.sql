-- Donor retention (docs/retention.md): each donor's net and gifts per client month, so every retention figure
-- (periods are whole months: month, quarter, year, fiscal year) reads months instead of gifts. Kept by
-- statement-level triggers on contributions in the writing statement's transaction, like contribution_days.
-- The donor key is the revenue one: the contact id, else 'e:' || e-mail (donor_firsts uses the same).
create table donor_months (
    month date not null,
    donor text not null,
    contact_id bigint,
    -- Net as docs/metrics.md defines it: a refunded gift keeps nothing, a refund line takes its amount away.
    net numeric(20, 2) not null default 0,
    -- Positive lines, refunded included (the revenue "gifts").
    gifts integer not null default 0,
    -- Positive recurring lines not refunded: the sustainer figures count these as payments.
    recurring_gifts integer not null default 0,
    recurring_net numeric(20, 2) not null default 0,
    primary key (month, donor)
);
create index donor_months_donor_idx on donor_months (donor, month) include (net);

-- The statement adding a set of contribution rows, each signed, to donor_months (`source` yields
-- (sgn, contributions.*)); executed by the trigger itself because transition tables are visible only there.
create function donor_months_sql(source text) returns text language sql immutable as $$
    select format($q$
        insert into donor_months as d (month, donor, contact_id, net, gifts, recurring_gifts, recurring_net)
        select date_trunc('month', c.paid_at at time zone s.time_zone)::date,
               coalesce(c.contact_id::text, 'e:' || c.email), min(c.contact_id),
               coalesce(sum(c.sgn * case when c.amount > 0
                                          and (c.refund_id is not null or c.refunded_at is not null)
                                         then 0 else c.amount end), 0),
               coalesce(sum(c.sgn) filter (where c.amount > 0), 0),
               coalesce(sum(c.sgn) filter (where c.amount > 0 and c.recurring_months is not null
                                             and c.refund_id is null and c.refunded_at is null), 0),
               coalesce(sum(c.sgn * c.amount) filter (where c.amount > 0 and c.recurring_months is not null
                                             and c.refund_id is null and c.refunded_at is null), 0)
        from (%s) c cross join app_settings s
        where c.contact_id is not null or c.email is not null
        group by 1, 2
        on conflict (month, donor) do update set
            net = d.net + excluded.net, gifts = d.gifts + excluded.gifts,
            recurring_gifts = d.recurring_gifts + excluded.recurring_gifts,
            recurring_net = d.recurring_net + excluded.recurring_net,
            contact_id = coalesce(d.contact_id, excluded.contact_id)
    $q$, source)
$$;

create function donor_months_insert() returns trigger language plpgsql as $$
begin
    execute donor_months_sql('select 1 as sgn, * from new_rows');
    return null;
end
$$;

create function donor_months_update() returns trigger language plpgsql as $$
begin
    execute donor_months_sql('select -1 as sgn, * from old_rows union all select 1 as sgn, * from new_rows');
    -- A donor-month whose lines all moved away leaves nothing behind.
    delete from donor_months d using (select distinct coalesce(o.contact_id::text, 'e:' || o.email) as donor
                                      from old_rows o) o
    where d.donor = o.donor and d.gifts = 0 and d.net = 0 and d.recurring_gifts = 0;
    return null;
end
$$;

create function donor_months_delete() returns trigger language plpgsql as $$
begin
    execute donor_months_sql('select -1 as sgn, * from old_rows');
    delete from donor_months d using (select distinct coalesce(o.contact_id::text, 'e:' || o.email) as donor
                                      from old_rows o) o
    where d.donor = o.donor and d.gifts = 0 and d.net = 0 and d.recurring_gifts = 0;
    return null;
end
$$;

create trigger donor_months_insert after insert on contributions
    referencing new table as new_rows for each statement execute function donor_months_insert();
create trigger donor_months_update after update on contributions
    referencing old table as old_rows new table as new_rows
    for each statement execute function donor_months_update();
create trigger donor_months_delete after delete on contributions
    referencing old table as old_rows for each statement execute function donor_months_delete();

-- Recounts donor_months from the facts; months depend on the client's zone, so a change of zone calls it.
create function rebuild_donor_months() returns void language plpgsql as $$
begin
    delete from donor_months;
    execute donor_months_sql('select 1 as sgn, * from contributions');
end
$$;

create function donor_months_zone_changed() returns trigger language plpgsql as $$
begin
    perform rebuild_donor_months();
    return null;
end
$$;

create trigger donor_months_zone_changed after update of time_zone on app_settings
    for each row when (old.time_zone is distinct from new.time_zone)
    execute function donor_months_zone_changed();

-- Each donor's acquisition: the month of the first gift and where it came from (the contact's origin code, the
-- first gift's source code channel and campaign, the form the code is tied to). Rebuilt by
-- refresh_retention() (the "Refresh Retention" job, nightly or on demand), not by the writers: the first gift
-- rarely changes and cohorts are read from the figures below.
create table donor_acquisition (
    donor text primary key,
    contact_id bigint,
    first_month date not null,
    origin text not null,
    channel text not null,
    campaign text not null,
    form text not null
);
create index donor_acquisition_month_idx on donor_acquisition (first_month);

-- The cohort, sustainer and lifetime-value figures scan every donor: computed on the first read after a
-- refresh and served from here, with the time they were computed.
create table retention_figures (
    key text primary key,
    computed timestamptz not null default now(),
    body jsonb not null
);

create table retention_refreshes (
    only_row boolean primary key default true check (only_row),
    refreshed timestamptz not null,
    -- When the scheduler last queued the daily refresh (so two workers never both queue it).
    claimed timestamptz
);

create function refresh_retention() returns timestamptz language plpgsql as $$
begin
    delete from donor_acquisition;
    insert into donor_acquisition (donor, contact_id, first_month, origin, channel, campaign, form)
    select distinct on (f.donor) f.donor, c.contact_id,
           date_trunc('month', f.first_paid_at at time zone s.time_zone)::date,
           coalesce(o.name, 'none'), coalesce(sc.channel, case when sc.id is null then 'none' else 'unparsed' end),
           coalesce(sc.campaign, 'none'), coalesce(nullif(fm.name, ''), case when fm.id is null then 'none'
                                                                          else 'form ' || fm.id end)
    from donor_firsts f
    cross join app_settings s
    join contributions c on c.paid_at = f.first_paid_at and c.amount > 0
                        and coalesce(c.contact_id::text, 'e:' || c.email) = f.donor
    left join source_codes sc on sc.id = c.source_code_id
    left join forms fm on fm.id = sc.form_id
    left join contacts k on k.id = c.contact_id
    left join origin_codes o on o.id = k.origin_code_id
    order by f.donor, c.id;
    delete from retention_figures;
    insert into retention_refreshes (only_row, refreshed) values (true, now())
    on conflict (only_row) do update set refreshed = excluded.refreshed;
    return now();
end
$$;

select rebuild_donor_months();
select refresh_retention();
