//! The hooks of the writers that already know, for what a trigger cannot see. (A form signup writes its events in
//! its own statement, `store::signups`; gifts and list members by statement triggers, see the migration.)
//! A segment's recompute replaces its members, so who *entered* is the new members that were not members before:
//! [`remember_segment`] keeps the old members, for a segment an active journey starts from, and
//! [`segment_entries`] writes the events after the compute.

use sqlx::PgConnection;

/// Whether an active journey starts from the segment; if so the current members are kept (until the end of the
/// transaction) for [`segment_entries`].
pub async fn remember_segment(
    conn: &mut PgConnection,
    segment_id: i64,
) -> Result<bool, sqlx::Error> {
    let watched: bool = sqlx::query_scalar(
        "select exists (
             select 1 from journeys j
             join journey_versions v on v.journey_id = j.id and v.version = j.version
             where j.status = 'active'
               and v.definition->'triggers' @> jsonb_build_array(
                       jsonb_build_object('kind', 'segment_entered', 'segment_id', $1::bigint)))",
    )
    .bind(segment_id)
    .fetch_one(&mut *conn)
    .await?;
    if watched {
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
            "drop table if exists journey_segment_before;
             create temp table journey_segment_before on commit drop as
                 select contact_id from segment_members where segment_id = {segment_id}"
        )))
        .execute(conn)
        .await?;
    }
    Ok(watched)
}

/// After the compute: a "segment entered" event for each member that was not one before.
pub async fn segment_entries(conn: &mut PgConnection, segment_id: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "insert into journey_events (kind, contact_id, ref_id)
         select 'segment_entered', m.contact_id, $1 from segment_members m
         where m.segment_id = $1
           and not exists (select 1 from journey_segment_before b where b.contact_id = m.contact_id)",
    )
    .bind(segment_id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}
