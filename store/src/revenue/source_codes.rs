//! Reference codes read again when the client changes its pattern.

use domain::CodePattern;
use sqlx::PgConnection;

/// Reads every stored reference code again with `pattern` (after the client changed its refcode pattern), so the
/// source-codes page groups by the parts the new pattern names. Returns how many codes changed.
pub async fn reparse_source_codes(
    conn: &mut PgConnection,
    pattern: &CodePattern,
) -> Result<u64, sqlx::Error> {
    let codes: Vec<(i64, String)> = sqlx::query_as("select id, code from source_codes")
        .fetch_all(&mut *conn)
        .await?;
    let mut ids = Vec::with_capacity(codes.len());
    let mut parsed = Vec::with_capacity(codes.len());
    let mut channels = Vec::with_capacity(codes.len());
    let mut dates = Vec::with_capacity(codes.len());
    let mut campaigns = Vec::with_capacity(codes.len());
    let mut variants = Vec::with_capacity(codes.len());
    for (id, code) in codes {
        let parts = pattern.parse(&code);
        ids.push(id);
        parsed.push(parts.parsed);
        channels.push(parts.channel);
        dates.push(parts.date);
        campaigns.push(parts.campaign);
        variants.push(parts.variant);
    }
    let changed = sqlx::query(
        "update source_codes s
         set parsed = u.parsed, channel = u.channel, code_date = u.code_date, campaign = u.campaign,
             variant = u.variant
         from unnest($1::bigint[], $2::boolean[], $3::text[], $4::date[], $5::text[], $6::text[])
              as u (id, parsed, channel, code_date, campaign, variant)
         where s.id = u.id
           and (s.parsed, s.channel, s.code_date, s.campaign, s.variant)
               is distinct from (u.parsed, u.channel, u.code_date, u.campaign, u.variant)",
    )
    .bind(&ids)
    .bind(&parsed)
    .bind(&channels)
    .bind(&dates)
    .bind(&campaigns)
    .bind(&variants)
    .execute(conn)
    .await?;
    Ok(changed.rows_affected())
}
