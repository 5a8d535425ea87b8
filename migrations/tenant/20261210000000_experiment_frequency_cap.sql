-- Experiments respect the programme's frequency cap as regular mailings do (issue 31). The test cells are drawn
-- from the audience members the cap lets through at the start, so the cells stay even; the winner send later
-- leaves out (and records in `mailing_held_back`) whoever the cap holds back by then. A mailing that ignores the
-- cap (`respect_cap = false`) draws from its whole audience, as before. A null `p_at` draws without the cap.
create function experiment_test_cells(p_mailing_id bigint, p_fraction numeric, p_at timestamptz)
returns table (contact_id bigint, variant text)
language sql stable set search_path from current as $$
    with v as (
        select array_agg(letter order by letter) as letters
        from (select 'a' as letter union all
              select letter from mailing_variants where mailing_id = p_mailing_id) l
    ), m as (select variant_seed from mailings where id = p_mailing_id),
    capped as (select c.contact_id from mailing_capped(p_mailing_id, p_at) c where p_at is not null),
    a as (
        select a.contact_id,
               row_number() over (order by hashtextextended(a.contact_id::text, m.variant_seed), a.contact_id) as rn,
               count(*) over () as n
        from mailing_audience(p_mailing_id) a, m
        where not exists (select 1 from capped c where c.contact_id = a.contact_id)
    )
    select a.contact_id, v.letters[1 + ((a.rn - 1) % cardinality(v.letters))::int]
    from a, v
    where a.rn <= round(a.n * p_fraction)
$$;

create or replace function experiment_test_cells(p_mailing_id bigint, p_fraction numeric)
returns table (contact_id bigint, variant text)
language sql stable set search_path from current as $$
    select * from experiment_test_cells(p_mailing_id, p_fraction, null::timestamptz)
$$;
