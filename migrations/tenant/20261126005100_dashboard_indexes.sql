-- The dashboard's two tiles that still read gifts (issue 16: one request, p95 ≤ 200 ms at 3,000,000 gifts) read an
-- index alone instead of fetching each row of the period from the table.

-- Active sustainers: recurring, unrefunded gifts of the last 35 days.
create index contributions_sustainers_idx on contributions (paid_at) include (amount, contact_id, email)
    where amount > 0 and recurring_months is not null and refund_id is null and refunded_at is null;

-- Net and donors by state for the month.
create index contributions_state_idx on contributions (paid_at)
    include (state, amount, refund_id, refunded_at, contact_id, email)
    where state is not null;

-- Net per mailing (the last five mailings' RPM, the flights' revenue): the figures' columns beside the mailing.
create index contributions_mailing_cover_idx on contributions (mailing_id)
    include (amount, refund_id, refunded_at, contact_id, paid_at)
    where mailing_id is not null;
drop index contributions_mailing_idx;
