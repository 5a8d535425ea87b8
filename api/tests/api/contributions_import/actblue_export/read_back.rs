//! What an import left in the database, read back by SQL.

use super::super::Figures;
use crate::helpers::TestApp;

/// The same figures by SQL over the imported rows (months in the client's zone).
pub(super) async fn imported(app: &TestApp, client: &tenancy::Client) -> Figures {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    let (lines, gross, refunds, fees): (i64, i64, i64, i64) = sqlx::query_as(
        "select count(*), (sum(amount) * 100)::bigint,
                coalesce((sum(amount) filter (where refunded_at is not null) * 100)::bigint, 0),
                (sum(fee) * 100)::bigint
         from contributions",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    let by_code: Vec<(String, i64)> = sqlx::query_as(
        "select coalesce(refcode, ''), (sum(amount) * 100)::bigint from contributions group by 1",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    let by_month: Vec<(String, i64, i64)> = sqlx::query_as(
        "select to_char(paid_at at time zone 'America/New_York', 'YYYY-MM'), (sum(amount) * 100)::bigint,
                (coalesce(sum(amount) filter (where refunded_at is null), 0) * 100)::bigint
         from contributions group by 1",
    )
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    Figures {
        lines,
        gross,
        refunds,
        net: gross - refunds,
        fees,
        by_code: by_code.into_iter().collect(),
        by_month: by_month.into_iter().map(|(m, g, n)| (m, (g, n))).collect(),
    }
}

/// Every column of every row, to show that a re-import changed nothing.
pub(super) async fn digest(app: &TestApp, client: &tenancy::Client) -> String {
    let mut tx = app.tenancy.begin(client).await.unwrap();
    sqlx::query_scalar(
        "select md5(coalesce(string_agg(c::text, '|' order by c.id), ''))
                || (select count(*) from contacts)::text || (select count(*) from source_codes)::text
         from contributions c",
    )
    .fetch_one(&mut *tx)
    .await
    .unwrap()
}
