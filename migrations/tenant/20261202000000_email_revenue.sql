-- One definition of e-mail revenue and RPM (README "Revenue metrics" › "E-mail revenue and RPM in a period"), read
-- by Planning, E-mail Analytics, Performance and the dashboard instead of each page's own query.
--
-- By send date: a mailing's figures belong to the client day its send started (`send_attempt`), whenever its gifts
-- are paid, so revenue and the deliveries it is divided by are always those of the same messages. Both come from the
-- rollups (`mailing_rollups`, `mailing_gift_rollups`), never from the facts.

-- A sent mailing's delivered, gifts, revenue (net of its attributed lines) and RPM, over all its sends.
create function mailing_email_figures(p_mailing bigint)
returns table (delivered bigint, gifts bigint, revenue numeric(20, 2), rpm numeric(20, 2))
language sql stable set search_path from current as $$
    select d.delivered, g.gifts, g.revenue,
           (case when d.delivered > 0 then round(g.revenue * 1000 / d.delivered, 2) else 0 end)::numeric(20, 2)
    from (select coalesce(sum(r.delivered), 0)::bigint as delivered
          from mailing_rollups r where r.mailing_id = p_mailing) d,
         (select coalesce(sum(x.gifts), 0)::bigint as gifts, coalesce(sum(x.revenue), 0)::numeric(20, 2) as revenue
          from mailing_gift_rollups x where x.mailing_id = p_mailing) g
$$;

-- The mailings whose send started from `p_from` to `p_to` (client days, both included), each with its figures.
create function email_revenue_mailings(p_from date, p_to date)
returns table (mailing_id bigint, day date, delivered bigint, gifts bigint, revenue numeric(20, 2),
               rpm numeric(20, 2))
language sql stable set search_path from current as $$
    select m.id, client_day(m.send_attempt), f.delivered, f.gifts, f.revenue, f.rpm
    from mailings m cross join lateral mailing_email_figures(m.id) f
    where m.send_attempt >= client_day_start(p_from) and m.send_attempt < client_day_start(p_to + 1)
$$;

-- E-mail revenue and RPM in a period: the sums over the period's mailings; RPM = revenue ÷ delivered × 1000
-- (0 while nothing is delivered).
create function email_revenue(p_from date, p_to date)
returns table (mailings bigint, delivered bigint, gifts bigint, revenue numeric(20, 2), rpm numeric(20, 2))
language sql stable set search_path from current as $$
    select count(*), coalesce(sum(e.delivered), 0)::bigint, coalesce(sum(e.gifts), 0)::bigint,
           coalesce(sum(e.revenue), 0)::numeric(20, 2),
           (case when sum(e.delivered) > 0 then round(sum(e.revenue) * 1000 / sum(e.delivered), 2) else 0 end)
               ::numeric(20, 2)
    from email_revenue_mailings(p_from, p_to) e
$$;

create index if not exists mailings_send_attempt_idx on mailings (send_attempt) where send_attempt is not null;
