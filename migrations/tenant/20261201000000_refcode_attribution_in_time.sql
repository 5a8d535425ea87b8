-- Issue 27, item 1: a refcode credits a gift to its mailing only when the gift was paid at or after the mailing
-- reached the giver (their recipient row's sent_at) or, for a giver who was not mailed, after the send started
-- (mailings.send_attempt). A mailing never sent has no refcode gifts. Gifts stored before this rule are judged
-- again here, set-based (running it twice changes nothing); the rollup triggers on contributions follow.

-- Refcode credits that break the rule: the gift keeps its source code and falls to the click rule (itself
-- bounded in time), else to none.
update contributions c
set mailing_id = x.click_mailing,
    attribution = case when x.click_mailing is null then 'none' else 'click' end
from (
    select g.id,
           (select e.mailing_id from mailing_events e
            where e.contact_id = g.contact_id and e.kind = 'click' and not e.machine
              and e.created <= g.paid_at
              and e.created >= g.paid_at - make_interval(
                      days => coalesce((select attribution_window_days from app_settings limit 1), 3))
            order by e.created desc, e.id desc limit 1) as click_mailing
    from contributions g
    left join mailings m on m.id = g.mailing_id
    left join mailing_recipients r on r.mailing_id = g.mailing_id and r.contact_id = g.contact_id
    where g.attribution = 'refcode'
      and not coalesce(g.paid_at >= coalesce(r.sent_at, m.send_attempt), false)
) x
where c.id = x.id;

-- Gifts whose code is tied to a mailing and that the rule allows are the mailing's by refcode (the refcode rule
-- comes before the click rule).
update contributions c
set mailing_id = x.mailing_id, attribution = 'refcode'
from (
    select g.id, s.mailing_id
    from contributions g
    join source_codes s on s.id = g.source_code_id
    join mailings m on m.id = s.mailing_id
    left join mailing_recipients r on r.mailing_id = s.mailing_id and r.contact_id = g.contact_id
    where g.paid_at >= coalesce(r.sent_at, m.send_attempt)
      and (g.attribution <> 'refcode' or g.mailing_id is distinct from s.mailing_id)
) x
where c.id = x.id;

