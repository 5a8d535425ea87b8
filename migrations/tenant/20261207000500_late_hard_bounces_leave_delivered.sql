-- A hard bounce heard after the send (a delivery report, a relay's webhook) now marks its recipient row bounced,
-- as a refusal during the send always did, so every page counts the same delivered copies. Rows heard before this
-- change are brought in line here (the rollup triggers move them from delivered to bounces).
update mailing_recipients r set status = 'bounced'
from (select distinct mailing_id, contact_id from delivery_events
      where kind = 'bounced' and bounce_type = 'hard' and mailing_id is not null and contact_id is not null) e
where r.mailing_id = e.mailing_id and r.contact_id = e.contact_id and r.status = 'sent';
