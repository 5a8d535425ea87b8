-- Segments: RFM scores and the standard segments every client has.

-- How RFM scores are made (README "Segments"): fixed bands by default, quintiles as an option. Each band list
-- holds the four upper edges that split five scores.
alter table app_settings
    add column rfm_method text not null default 'bands' check (rfm_method in ('bands', 'quintiles')),
    -- Recency in days since the last gift: <= 30 scores 5, <= 90 4, <= 180 3, <= 365 2, older 1.
    add column rfm_recency_days integer[] not null default '{30,90,180,365}',
    -- Frequency in counted gifts, all time: 1 scores 1, 2 2, 3-5 3, 6-11 4, 12+ 5.
    add column rfm_frequency_gifts integer[] not null default '{1,2,5,11}',
    -- Monetary: the sum of counted gifts in the last 24 months: < 25 scores 1, < 100 2, < 250 3, < 1000 4, 5.
    add column rfm_monetary_amounts numeric[] not null default '{25,100,250,1000}',
    add column rfm_computed timestamptz;

-- One row per donor (a contact with a counted gift), replaced whole by each recompute.
create table rfm_scores (
    contact_id bigint primary key,
    recency smallint not null check (recency between 1 and 5),
    frequency smallint not null check (frequency between 1 and 5),
    monetary smallint not null check (monetary between 1 and 5),
    last_gift_at timestamptz not null,
    gifts integer not null,
    amount_24m numeric(20, 2) not null
);
create index rfm_scores_cell_idx on rfm_scores (recency, frequency, monetary);

-- Recency bands and members' gifts read contributions by contact; a partial index over counted gifts.
create index contributions_counted_contact_idx on contributions (contact_id, paid_at)
    include (amount, recurring_months, source_code_id)
    where contact_id is not null and amount > 0 and refunded_at is null;

-- The standard segments. Their rules are ordinary rules (store::segments::rule); LYBUNT and SYBUNT read the
-- tenant functions lybunt_contacts and sybunt_contacts. The nightly recompute keeps them current.
insert into segments (name, standard, rule) values
    ('Active donors (0–12 months)', 'active_donors',
     '{"op": "and", "conditions": [{"field": "recencyBand", "op": "in", "value": ["active"]}]}'),
    ('Lapsed donors (13–24 months)', 'lapsed',
     '{"op": "and", "conditions": [{"field": "recencyBand", "op": "in", "value": ["lapsed"]}]}'),
    ('LYBUNT', 'lybunt',
     '{"op": "and", "conditions": [{"field": "donorStatus", "op": "is", "value": "lybunt"}]}'),
    ('SYBUNT', 'sybunt',
     '{"op": "and", "conditions": [{"field": "donorStatus", "op": "is", "value": "sybunt"}]}'),
    ('Sustainers', 'sustainers',
     '{"op": "and", "conditions": [{"field": "activeSustainer", "op": "is", "value": true}]}'),
    ('Actives 90 days', 'actives_90',
     '{"op": "or", "conditions": [{"field": "opened", "op": "withinDays", "value": 90}, {"field": "clicked", "op": "withinDays", "value": 90}]}'),
    ('Never gave', 'never_gave',
     '{"op": "and", "conditions": [{"field": "gave", "op": "never"}]}'),
    ('New donors 30 days', 'new_donors_30',
     '{"op": "and", "conditions": [{"field": "firstGift", "op": "withinDays", "value": 30}]}')
on conflict do nothing;
