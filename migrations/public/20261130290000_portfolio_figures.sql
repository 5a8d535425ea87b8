-- The portfolio's figures per client (issue 32, docs/portfolio.md): the worker's "Refresh Portfolio" job computes a
-- client's row in its own schema every 5 minutes and stores it here, so `GET /api/portfolio` reads every granted
-- client's row with one query instead of reading every schema. `figures` is `store::portfolio::ClientFigures`
-- as JSON; `computed_at` is when its reads began (the page shows the oldest as "Figures as of").
create table client_portfolio_figures (
    client_id bigint primary key references clients (id) on delete cascade,
    figures jsonb not null,
    computed_at timestamptz not null
);

-- The scheduler's claims: a client whose figures are due gets one refresh queued per claim, whichever worker's
-- pass sees it first; a claim older than the refresh interval may be taken again (a job lost or failed).
create table client_portfolio_claims (
    client_id bigint primary key references clients (id) on delete cascade,
    claimed_at timestamptz not null
);
