//! One client's group of webhooks written in one transaction.

use super::row::Row;
use super::{Pending, Written};
use crate::error::ApiError;
use domain::CodePattern;
use store::revenue::attribute;
use tenancy::Tenancy;

/// Writes one client's group in one transaction; returns what each webhook changed.
pub(super) async fn write_batch(
    tenancy: &Tenancy,
    items: &[Pending],
) -> Result<Vec<Written>, ApiError> {
    let Some(first) = items.first() else {
        return Ok(Vec::new());
    };
    let all: Vec<(usize, &Row)> = items
        .iter()
        .enumerate()
        .flat_map(|(i, p)| p.rows.iter().map(move |r| (i, r)))
        .collect();
    let col = |f: fn(&Row) -> Option<String>| all.iter().map(|(_, r)| f(r)).collect::<Vec<_>>();
    let owner: Vec<i32> = all.iter().map(|(i, _)| *i as i32).collect();
    let ids: Vec<String> = all.iter().map(|(_, r)| r.line_item_id.clone()).collect();
    let amounts: Vec<String> = all.iter().map(|(_, r)| r.amount.clone()).collect();
    let months: Vec<Option<i32>> = all.iter().map(|(_, r)| r.recurring_months).collect();
    let mobile: Vec<Option<bool>> = all.iter().map(|(_, r)| r.mobile).collect();
    let express: Vec<Option<bool>> = all.iter().map(|(_, r)| r.express_signup).collect();

    let mut tx = tenancy.begin(&first.client).await?;
    // One group per client at a time: two writers on one client's lines and rollups could deadlock.
    sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 0))")
        .bind(format!("actblue-webhook:{}", first.client.id))
        .execute(&mut *tx)
        .await?;
    let (origin_code, pattern, window): (String, String, i32) = sqlx::query_as(
        "select actblue_origin_code, refcode_pattern, attribution_window_days from app_settings limit 1",
    )
    .fetch_one(&mut *tx)
    .await?;
    let emails = col(|r| r.email.clone());
    sqlx::query(
        "insert into origin_codes (name)
         select $1 where exists (
             select 1 from unnest($2::text[]) e
             where e is not null and not exists (select 1 from contacts c where c.email = e))
         on conflict (name) do nothing",
    )
    .bind(&origin_code)
    .bind(&emails)
    .execute(&mut *tx)
    .await?;
    // E-mail order, so concurrent groups lock contact rows in the same order.
    sqlx::query(
        "insert into contacts (email, first_name, last_name, phone, origin_code_id)
         select distinct on (email) email, coalesce(first_name, ''), coalesce(last_name, ''), phone,
                (select o.id from origin_codes o where o.name = $5)
         from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t (email, first_name, last_name, phone)
         where email is not null
         order by email
         on conflict (email) do nothing",
    )
    .bind(&emails)
    .bind(col(|r| r.first_name.clone()))
    .bind(col(|r| r.last_name.clone()))
    .bind(col(|r| r.phone.clone()))
    .bind(&origin_code)
    .execute(&mut *tx)
    .await?;
    let pattern = CodePattern::new(&pattern);
    let mut codes: Vec<String> = all.iter().filter_map(|(_, r)| r.refcode.clone()).collect();
    codes.sort();
    codes.dedup();
    for code in &codes {
        let p = pattern.parse(code);
        sqlx::query(
            "insert into source_codes (code, parsed, channel, code_date, campaign, variant)
             values ($1, $2, $3, $4, $5, $6) on conflict (code) do nothing",
        )
        .bind(code)
        .bind(p.parsed)
        .bind(p.channel)
        .bind(p.date)
        .bind(p.campaign)
        .bind(p.variant)
        .execute(&mut *tx)
        .await?;
    }
    let refunded_abs = col(|r| r.refunded_abs.clone());
    let refunded_local = col(|r| r.refunded_local.clone());
    let inserted: Vec<(i32, bool)> = sqlx::query_as(
        "insert into contributions (
             platform, line_item_id, receipt_id, paid_at, amount, fee, contact_id, email, first_name, last_name,
             zip, state, phone, recurring_months, refcode, refcode2, source_code_id, fundraising_page,
             ab_test_name, ab_variation, mobile, express_signup, refunded_at)
         select distinct on (t.line_item_id)
                'actblue', t.line_item_id, t.receipt_id,
                coalesce(t.paid_abs::timestamptz,
                         t.paid_local::timestamp at time zone (select time_zone from app_settings limit 1)),
                t.amount::numeric, t.fee::numeric, c.id, t.email, t.first_name, t.last_name, t.zip, t.state,
                t.phone, t.months, t.refcode, t.refcode2, sc.id, t.page, t.ab_test_name, t.ab_variation,
                t.mobile, t.express,
                coalesce(t.refunded_abs::timestamptz,
                         t.refunded_local::timestamp at time zone (select time_zone from app_settings limit 1))
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[],
                     $15::text[], $16::text[], $17::text[], $18::text[], $19::bool[], $20::bool[], $21::int[],
                     $22::text[], $23::text[])
              as t (line_item_id, receipt_id, paid_abs, paid_local, amount, fee, email, first_name, last_name,
                    zip, state, phone, months, refcode, refcode2, page, ab_test_name, ab_variation, mobile,
                    express, owner, refunded_abs, refunded_local)
         left join contacts c on c.email = t.email
         left join source_codes sc on sc.code = t.refcode
         -- A refund beats the paid webhook of the same line within one group.
         order by t.line_item_id, (t.refunded_abs is null and t.refunded_local is null)
         on conflict (platform, line_item_id) do nothing
         returning (select min(o) from unnest($1::text[], $21::int[]) as x (id, o) where x.id = line_item_id),
                   refunded_at is not null",
    )
    .bind(&ids)
    .bind(col(|r| r.receipt_id.clone()))
    .bind(col(|r| r.paid_abs.clone()))
    .bind(col(|r| r.paid_local.clone()))
    .bind(&amounts)
    .bind(col(|r| r.fee.clone()))
    .bind(&emails)
    .bind(col(|r| r.first_name.clone()))
    .bind(col(|r| r.last_name.clone()))
    .bind(col(|r| r.zip.clone()))
    .bind(col(|r| r.state.clone()))
    .bind(col(|r| r.phone.clone()))
    .bind(&months)
    .bind(col(|r| r.refcode.clone()))
    .bind(col(|r| r.refcode2.clone()))
    .bind(col(|r| r.page.clone()))
    .bind(col(|r| r.ab_test_name.clone()))
    .bind(col(|r| r.ab_variation.clone()))
    .bind(&mobile)
    .bind(&express)
    .bind(&owner)
    .bind(&refunded_abs)
    .bind(&refunded_local)
    .fetch_all(&mut *tx)
    .await?;
    // Known lines a refund webhook names are marked once; a line already refunded (or a replay) stays as it is.
    let marked: Vec<i32> = sqlx::query_scalar(
        "update contributions c
         set refunded_at = coalesce(t.refunded_abs::timestamptz,
                                    t.refunded_local::timestamp at time zone s.time_zone)
         from unnest($1::text[], $2::int[], $3::text[], $4::text[])
              as t (line_item_id, owner, refunded_abs, refunded_local)
         cross join app_settings s
         where c.platform = 'actblue' and c.line_item_id = t.line_item_id
           and (t.refunded_abs is not null or t.refunded_local is not null)
           and c.refunded_at is null and c.refund_id is null
         returning t.owner",
    )
    .bind(&ids)
    .bind(&owner)
    .bind(&refunded_abs)
    .bind(&refunded_local)
    .fetch_all(&mut *tx)
    .await?;
    attribute(&mut tx, window)
        .await
        .map_err(ApiError::internal)?;
    tx.commit().await?;
    let mut written = vec![Written::default(); items.len()];
    for (o, refunded) in inserted {
        if let Some(w) = written.get_mut(o as usize) {
            w.new += 1;
            w.refunded += i64::from(refunded);
        }
    }
    for o in marked {
        if let Some(w) = written.get_mut(o as usize) {
            w.refunded += 1;
        }
    }
    Ok(written)
}
