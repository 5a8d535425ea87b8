//! The programme-wide frequency cap and quiet hours: journeys and regular sends both count and both respect them.

use sqlx::PgConnection;

#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Limits {
    pub per_day: Option<i32>,
    pub per_week: Option<i32>,
    pub quiet_start_hour: Option<i32>,
    pub quiet_end_hour: Option<i32>,
}

pub async fn get_limits(conn: &mut PgConnection) -> Result<Limits, sqlx::Error> {
    let row: Option<Limits> = sqlx::query_as(
        "select per_day, per_week, quiet_start_hour, quiet_end_hour from journey_limits",
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.unwrap_or_default())
}

pub async fn put_limits(conn: &mut PgConnection, limits: &Limits) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into journey_limits (per_day, per_week, quiet_start_hour, quiet_end_hour)
         values ($1, $2, $3, $4)
         on conflict (only_row) do update set per_day = excluded.per_day, per_week = excluded.per_week,
             quiet_start_hour = excluded.quiet_start_hour, quiet_end_hour = excluded.quiet_end_hour",
    )
    .bind(limits.per_day)
    .bind(limits.per_week)
    .bind(limits.quiet_start_hour)
    .bind(limits.quiet_end_hour)
    .execute(conn)
    .await?;
    Ok(())
}
