//! One client's group of webhooks written in one transaction.

use super::row::Row;
use super::{Pending, Written};
use crate::error::ApiError;
use domain::CodePattern;
use store::revenue::attribute;
use store::revenue::webhook::{self, Lines};
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
    let lines = Lines {
        line_item_ids: all.iter().map(|(_, r)| r.line_item_id.clone()).collect(),
        receipt_ids: col(|r| r.receipt_id.clone()),
        paid_abs: col(|r| r.paid_abs.clone()),
        paid_local: col(|r| r.paid_local.clone()),
        amounts: all.iter().map(|(_, r)| r.amount.clone()).collect(),
        fees: col(|r| r.fee.clone()),
        emails: col(|r| r.email.clone()),
        first_names: col(|r| r.first_name.clone()),
        last_names: col(|r| r.last_name.clone()),
        zips: col(|r| r.zip.clone()),
        states: col(|r| r.state.clone()),
        phones: col(|r| r.phone.clone()),
        months: all.iter().map(|(_, r)| r.recurring_months).collect(),
        refcodes: col(|r| r.refcode.clone()),
        refcode2s: col(|r| r.refcode2.clone()),
        pages: col(|r| r.page.clone()),
        ab_test_names: col(|r| r.ab_test_name.clone()),
        ab_variations: col(|r| r.ab_variation.clone()),
        mobile: all.iter().map(|(_, r)| r.mobile).collect(),
        express: all.iter().map(|(_, r)| r.express_signup).collect(),
        owners: all.iter().map(|(i, _)| *i as i32).collect(),
        refunded_abs: col(|r| r.refunded_abs.clone()),
        refunded_local: col(|r| r.refunded_local.clone()),
    };

    let mut tx = tenancy.begin(&first.client).await?;
    webhook::lock(&mut tx, &format!("actblue-webhook:{}", first.client.id)).await?;
    let (origin_code, pattern, window) = webhook::settings(&mut tx).await?;
    webhook::ensure_origin_code(&mut tx, &origin_code, &lines).await?;
    webhook::insert_contacts(&mut tx, &origin_code, &lines).await?;
    let pattern = CodePattern::new(&pattern);
    let mut codes: Vec<String> = all.iter().filter_map(|(_, r)| r.refcode.clone()).collect();
    codes.sort();
    codes.dedup();
    for code in &codes {
        webhook::insert_source_code(&mut tx, code, pattern.parse(code)).await?;
    }
    let inserted = webhook::insert_lines(&mut tx, &lines).await?;
    let marked = webhook::mark_refunds(&mut tx, &lines).await?;
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
