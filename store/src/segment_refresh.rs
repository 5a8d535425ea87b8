//! When every segment is recomputed without anyone asking: the scheduler reads here whether that is due.

use sqlx::PgConnection;

/// Whether a segment was last computed before the client's today began (the nightly run) or before the last
/// finished contributions import, while no "Update Segment" job over every segment is queued, running or was
/// started in the last 15 minutes.
pub async fn due(conn: &mut PgConnection) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (
                    select 1 from segments s
                    where s.computed is null
                       or s.computed < client_day_start(client_today())
                       or s.computed < (select max(j.updated) from jobs j
                                        where j.command = 'contribution-import' and j.status = 'done'
                                          and j.success))
                and not exists (
                    select 1 from jobs j
                    where j.command = 'update-segment' and j.payload -> 'segmentId' = 'null'::jsonb
                      and (j.status <> 'done' or j.created > now() - interval '15 minutes'))",
    )
    .fetch_one(conn)
    .await
}
