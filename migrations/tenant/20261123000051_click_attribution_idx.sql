-- Click attribution looks up a contact's last human click before a gift: one index probe per gift.
create index mailing_events_contact_click_idx on mailing_events (contact_id, created)
    where kind = 'click' and not machine;
