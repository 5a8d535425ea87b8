-- Opens and clicks of "Send to my inbox" copies. Their links are signed for no contact (id 0); they are kept
-- here, apart from mailing_events, so a test never counts in a mailing's figures or rollups.
create table mailing_test_events (
    id bigint generated always as identity primary key,
    -- 0 for a mailing that was not saved yet.
    mailing_id bigint not null,
    kind text not null check (kind in ('open', 'click')),
    url text,
    created timestamptz not null default now()
);
create index mailing_test_events_mailing_idx on mailing_test_events (mailing_id, created);
