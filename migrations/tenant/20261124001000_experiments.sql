-- Experiments: a mailing's variants tested on a fraction of its audience, judged on one metric after a wait, then
-- the winner sent to the rest (README "Experiments").

create table experiments (
    id bigint generated always as identity primary key,
    name text not null check (length(name) between 1 and 200),
    kind text not null check (kind in ('subject', 'sender', 'preview', 'body', 'ask')),
    mailing_id bigint not null references mailings (id) on delete cascade,
    -- The share of the audience in the test, split evenly among the variants.
    test_fraction numeric(4, 3) not null check (test_fraction > 0 and test_fraction < 1),
    metric text not null check (metric in ('open_rate', 'click_rate', 'response_rate', 'rpm')),
    wait_hours integer not null check (wait_hours between 0 and 720),
    auto_send boolean not null,
    -- The sample-size check: the rate expected of the variants as they are and the relative lift to detect.
    baseline_rate double precision not null check (baseline_rate > 0 and baseline_rate < 1),
    expected_lift double precision not null check (expected_lift > 0 and expected_lift <= 10),
    alpha double precision not null default 0.05 check (alpha > 0 and alpha < 0.5),
    power double precision not null default 0.8 check (power >= 0.5 and power < 1),
    status text not null default 'draft' check (status in
        ('draft', 'testing', 'waiting', 'decided', 'no_difference', 'winner_sending', 'finished')),
    created timestamptz not null default now(),
    started_at timestamptz,
    decided_at timestamptz,
    -- The variant the test picked (decided) or a person sent (no difference); null before.
    winner text,
    winner_sent_at timestamptz,
    finished_at timestamptz,
    -- The comparison's numbers when it was decided (see store::experiments).
    result jsonb
);
-- One experiment per mailing: its recipients can be split only once.
create unique index experiments_mailing_idx on experiments (mailing_id);
create index experiments_open_idx on experiments (status) where status not in ('draft', 'finished');

-- The test cells: who was in the test and with which variant. Everyone else the mailing reaches is the remainder
-- (the winner send), so the winner's figures and the test's never mix.
create table experiment_cells (
    experiment_id bigint not null references experiments (id) on delete cascade,
    contact_id bigint not null,
    variant text not null,
    primary key (experiment_id, contact_id)
);

-- The test cells of a mailing's audience: the audience ordered by a hash of the mailing's seed and the contact
-- (as `mailing_audience_split`), its first `round(n × fraction)` dealt round-robin to the variants, so the same
-- seed draws the same cells and every variant gets the same number of people within one.
create function experiment_test_cells(p_mailing_id bigint, p_fraction numeric)
returns table (contact_id bigint, variant text)
language sql stable set search_path from current as $$
    with v as (
        select array_agg(letter order by letter) as letters
        from (select 'a' as letter union all
              select letter from mailing_variants where mailing_id = p_mailing_id) l
    ), m as (select variant_seed from mailings where id = p_mailing_id),
    a as (
        select a.contact_id,
               row_number() over (order by hashtextextended(a.contact_id::text, m.variant_seed), a.contact_id) as rn,
               count(*) over () as n
        from mailing_audience(p_mailing_id) a, m
    )
    select a.contact_id, v.letters[1 + ((a.rn - 1) % cardinality(v.letters))::int]
    from a, v
    where a.rn <= round(a.n * p_fraction)
$$;
